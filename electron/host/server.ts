import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp';
import { dispatch, type HandlerTable } from '../core/dispatch';
import type { Session } from '../core/session';

export const TOKEN_HEADER = 'x-workbench-token';
/** Each browser tab names its own seat, so the reviewer unlocked in one tab never acts in another. */
export const SEAT_HEADER = 'x-workbench-seat';
const SEAT_ID = /^[A-Za-z0-9_-]{16,64}$/;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

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

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body exceeds ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function serveStatic(res: ServerResponse, rendererDir: string, urlPath: string): void {
  const root = resolve(rendererDir);
  const rel = urlPath === '/' ? 'index.html' : decodeURIComponent(urlPath).replace(/^\/+/, '');
  const file = normalize(join(root, rel));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    send(res, 404, 'not found', 'text/plain; charset=utf-8');
    return;
  }
  send(res, 200, readFileSync(file) as unknown as string, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
}

/**
 * Serves the workbench's handler table and built UI on 127.0.0.1 only. Every API call needs the
 * per-launch token, and Host/Origin must name this loopback origin: a page on another origin, or
 * a DNS name rebound to 127.0.0.1, gets 403 before any handler runs.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const server = createServer(async (req, res) => {
    try {
      const host = req.headers.host ?? '';
      if (!allowedHosts.has(host)) return forbidden(res, `Host ${JSON.stringify(host).slice(0, 80)} is not this loopback host`);
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins.has(origin)) {
        return forbidden(res, `Origin ${JSON.stringify(origin).slice(0, 80)} may not call the workbench`);
      }
      const url = new URL(req.url ?? '/', `http://${host}`);
      if (url.pathname.startsWith('/api/')) {
        if (!tokenMatches(token, req.headers[TOKEN_HEADER] as string | undefined)) {
          return forbidden(res, 'missing or wrong launch token');
        }
        if (req.method !== 'POST') return send(res, 405, JSON.stringify({ ok: false, error: { code: 'VALIDATION', message: 'use POST' } }));
        const channel = decodeURIComponent(url.pathname.slice('/api/'.length));
        const raw = await readBody(req);
        let body: unknown;
        try {
          body = raw.length ? JSON.parse(raw) : {};
        } catch {
          return send(res, 400, JSON.stringify({ ok: false, error: { code: 'VALIDATION', message: `${channel}: request body is not JSON` } }));
        }
        const seatId = req.headers[SEAT_HEADER];
        if (seatId !== undefined && (typeof seatId !== 'string' || !SEAT_ID.test(seatId))) {
          return send(res, 400, JSON.stringify({ ok: false, error: { code: 'VALIDATION', message: `${SEAT_HEADER} must be 16 to 64 letters, digits, '-' or '_'` } }));
        }
        const seat = options.session.seat(seatId ? `tab:${seatId}` : 'loopback');
        const envelope = await dispatch(options.handlers, seat, channel, body);
        return send(res, 200, JSON.stringify(envelope));
      }
      if (req.method !== 'GET') return send(res, 405, 'method not allowed', 'text/plain; charset=utf-8');
      if (!options.rendererDir) return send(res, 404, 'no renderer build is served', 'text/plain; charset=utf-8');
      serveStatic(res, options.rendererDir, url.pathname);
    } catch (err) {
      options.session.log(`loopback host: ${(err as Error).message}`);
      if (!res.headersSent) send(res, 500, JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: 'loopback host error' } }));
    }
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
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
