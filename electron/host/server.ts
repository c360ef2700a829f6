import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp';
import { dispatch, type HandlerTable } from '../core/dispatch';
import { WorkbenchError } from '../core/errors';
import { DEFAULT_MAX_BUNDLE_BYTES } from '../../shared/interchange/bundle';
import { receiveUpload } from '../core/interchange/inbox';
import type { Session } from '../core/session';

export const TOKEN_HEADER = 'x-workbench-token';
/** Each browser tab names its own seat, so the reviewer unlocked in one tab never acts in another. */
export const SEAT_HEADER = 'x-workbench-seat';
const SEAT_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** A larger request body answers 413 and closes the connection instead of being read. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * How long one client may hold a connection. Node's own defaults (60 s for headers, 300 s for the
 * whole request, checked every 30 s) let a client that dribbles its request keep a socket and a
 * pending handler call open for minutes; tests pass small values.
 */
export interface HostTimeouts {
  /** From connect, or from the first byte of a later request on the connection, until the headers are in; then 408. */
  headersMs: number;
  /** From the same start until the whole request, body included, is in; then 408. A slow handler is not cut. */
  requestMs: number;
  /** How long an idle kept-alive connection waits for its next request. */
  keepAliveMs: number;
  /** On close, how long a request already in flight may finish before its connection is cut. */
  closeGraceMs: number;
}
export const DEFAULT_HOST_TIMEOUTS: HostTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, closeGraceMs: 2_000 };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface HostOptions {
  session: Session;
  handlers: HandlerTable;
  /** Built renderer (index.html + assets); without it only the API is served. */
  rendererDir?: string;
  port?: number;
  token?: string;
  /** Any left out keep their DEFAULT_HOST_TIMEOUTS value. */
  timeouts?: Partial<HostTimeouts>;
}

export interface RunningHost {
  url: string;
  origin: string;
  port: number;
  token: string;
  server: Server;
  close: () => Promise<void>;
}

function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8'): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': CONTENT_SECURITY_POLICY,
  });
  res.end(body);
}

const forbidden = (res: ServerResponse, why: string) =>
  send(res, 403, JSON.stringify({ ok: false, error: { code: 'FORBIDDEN', message: `loopback host: ${why}` } }));

const invalid = (res: ServerResponse, status: number, message: string) =>
  send(res, status, JSON.stringify({ ok: false, error: { code: 'VALIDATION', message } }));

/** Answers 413 and closes the connection, so whatever the client still sends is dropped, not read into memory. */
function bodyTooLarge(res: ServerResponse, channel: string): void {
  res.shouldKeepAlive = false;
  invalid(res, 413, `${channel}: request body exceeds 8 MiB (${MAX_BODY_BYTES} bytes); send less`);
}

const declaresTooLarge = (req: IncomingMessage) => Number(req.headers['content-length']) > MAX_BODY_BYTES;

/** decodeURIComponent, or null for a malformed escape such as `%zz`, where it would throw. */
function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * The request body as text, or null once more than MAX_BODY_BYTES have arrived: from then on the
 * chunks are dropped as they come instead of kept.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop reading: the 413 closes the connection, and the rest is never taken off the socket.
        // Stryker disable next-line StringLiteral: equivalent; pause() stops the chunks, and one that still came would be dropped by this branch again
        req.off('data', collect);
        req.pause();
        chunks.length = 0;
        resolveBody(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', collect);
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    // Node reports a connection cut mid-body, by the client or by the request timeout, as 'error'
    // ('aborted'), before its 'close'.
    req.on('error', (err) => reject(new Error(`request body cut off after ${size} bytes: ${err.message}`)));
  });
}

function serveStatic(res: ServerResponse, rendererDir: string, urlPath: string): void {
  const root = resolve(rendererDir);
  const decoded = decodePath(urlPath);
  if (decoded === null) {
    send(res, 400, "bad request: the path has a malformed percent-escape; write '%' as %25", 'text/plain; charset=utf-8');
    return;
  }
  // join() reads a leading '/' as relative to root; normalize() resolves '..', and what lands outside root is refused.
  const file = normalize(join(root, urlPath === '/' ? 'index.html' : decoded));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    send(res, 404, 'not found', 'text/plain; charset=utf-8');
    return;
  }
  send(res, 200, readFileSync(file) as unknown as string, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
}

/**
 * Stops accepting, drops idle kept-alive connections at once, and gives requests in flight
 * `graceMs` to finish before cutting their connections: a client that keeps its connection busy
 * (a window still polling) cannot hold the host open.
 */
function closeWithin(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((done) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cut);
      done();
    });
    server.closeIdleConnections();
  });
}

/**
 * Serves the workbench's handler table and built UI on 127.0.0.1 only. Every API call needs the
 * per-launch token, and Host/Origin must name this loopback origin: a page on another origin, or
 * a DNS name rebound to 127.0.0.1, gets 403 before any handler runs.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const timeouts = { ...DEFAULT_HOST_TIMEOUTS, ...options.timeouts };
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const serverOptions: ServerOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node looks for expired requests only this often (every 30 s unless told), so it bounds how late a 408 comes.
    // Stryker disable next-line MethodExpression: equivalent to a test; a shorter interval only makes a 408 more punctual
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
  };
  const server = createServer(serverOptions, async (req, res) => {
    try {
      const host = req.headers.host ?? '';
      if (!allowedHosts.has(host)) return forbidden(res, `Host ${JSON.stringify(host).slice(0, 80)} is not this loopback host`);
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins.has(origin)) {
        return forbidden(res, `Origin ${JSON.stringify(origin).slice(0, 80)} may not call the workbench`);
      }
      // An absolute-form target such as `http://[` passes Node's parser but not URL.
      // Stryker disable next-line StringLiteral: a request the server hands over always has its url
      const target = req.url ?? '/';
      if (!URL.canParse(target, `http://${host}`)) return send(res, 400, 'bad request: the request target is not a URL', 'text/plain; charset=utf-8');
      const url = new URL(target, `http://${host}`);
      if (url.pathname === '/upload') {
        // A file dropped on or picked in the browser: streamed into the inbox, answered with its id (see core/interchange/inbox.ts).
        if (!tokenMatches(token, req.headers[TOKEN_HEADER] as string | undefined)) return forbidden(res, 'missing or wrong launch token');
        if (req.method !== 'POST') return invalid(res, 405, 'use POST');
        if (Number(req.headers['content-length']) > DEFAULT_MAX_BUNDLE_BYTES) {
          res.shouldKeepAlive = false;
          return invalid(res, 413, `upload: the file is larger than the limit of ${DEFAULT_MAX_BUNDLE_BYTES.toLocaleString('en')} bytes`);
        }
        try {
          const received = await receiveUpload(options.session.userDataDir, req, DEFAULT_MAX_BUNDLE_BYTES);
          return send(res, 200, JSON.stringify({ ok: true, value: received }));
        } catch (err) {
          if (!(err instanceof WorkbenchError)) throw err;
          res.shouldKeepAlive = false;
          return invalid(res, 400, err.message);
        }
      }
      if (url.pathname.startsWith('/api/')) {
        if (!tokenMatches(token, req.headers[TOKEN_HEADER] as string | undefined)) {
          return forbidden(res, 'missing or wrong launch token');
        }
        if (req.method !== 'POST') return invalid(res, 405, 'use POST');
        const channel = decodePath(url.pathname.slice('/api/'.length));
        if (channel === null) {
          const path = JSON.stringify(url.pathname).slice(0, 80);
          return invalid(res, 400, `loopback host: path ${path} has a malformed percent-escape; name the channel as /api/<channel>, with '%' written %25`);
        }
        if (declaresTooLarge(req)) return bodyTooLarge(res, channel);
        const raw = await readBody(req);
        if (raw === null) return bodyTooLarge(res, channel);
        let body: unknown;
        try {
          body = raw.length ? JSON.parse(raw) : {};
        } catch {
          return invalid(res, 400, `${channel}: request body is not JSON`);
        }
        const seatId = req.headers[SEAT_HEADER];
        if (seatId !== undefined && (typeof seatId !== 'string' || !SEAT_ID.test(seatId))) {
          return invalid(res, 400, `${SEAT_HEADER} must be 16 to 64 letters, digits, '-' or '_'`);
        }
        // Stryker disable next-line StringLiteral: any one fixed name is the same seat; tabs are told apart by their prefix
        const seat = options.session.seat(seatId ? `tab:${seatId}` : 'loopback');
        const envelope = await dispatch(options.handlers, seat, channel, body);
        return send(res, 200, JSON.stringify(envelope));
      }
      if (req.method !== 'GET') return send(res, 405, 'method not allowed', 'text/plain; charset=utf-8');
      // Browsers ask for it on every load whatever the page links; No Content keeps a 404 out of the console.
      // Stryker disable next-line StringLiteral: a 204 carries no body (Node drops what is written), so no text here can be observed
      if (url.pathname === '/favicon.ico') return send(res, 204, '', 'text/plain; charset=utf-8');
      if (!options.rendererDir) return send(res, 404, 'no renderer build is served', 'text/plain; charset=utf-8');
      serveStatic(res, options.rendererDir, url.pathname);
    } catch (err) {
      options.session.log(`loopback host: ${(err as Error).message}`);
      // Every path returns right after it answers, so an error reaches here before any header: the guard
      // keeps a later path from throwing inside this catch, which no request can show today.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent on every path that exists (above)
      if (!res.headersSent && !res.destroyed) send(res, 500, JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: 'loopback host error' } }));
    }
  });

  // A client that asks before uploading (curl does above 1 MiB) hears 413 instead of 100 Continue.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const limit = req.url === '/upload' ? DEFAULT_MAX_BUNDLE_BYTES : MAX_BODY_BYTES;
    if (!(Number(req.headers['content-length']) > limit)) res.writeContinue();
    server.emit('request', req, res);
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    server,
    close: () => closeWithin(server, timeouts.closeGraceMs),
  };
}
