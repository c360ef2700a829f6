import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HandlerTable } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { testSession } from '../testing/testCase';
import { startHost, type HostTimeouts, type RunningHost } from './server';

/** What came back on one raw connection, and whether the host had closed it by `giveUpMs`. */
interface Reply {
  status: number;
  headers: string;
  body: string;
  closed: boolean;
  ms: number;
}

/** The payload of a chunked HTTP/1.1 body (the host streams its answers chunked). */
function dechunk(raw: string): string {
  let out = '';
  let rest = raw;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = eol < 0 ? 0 : parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

interface RawClient {
  write: (bytes: string) => void;
  /** Writes, and resolves once the socket takes more (or has closed): a sender that waits for the host to read. */
  send: (bytes: string) => Promise<void>;
  closed: () => boolean;
}

/**
 * A raw TCP client, so a test can send half a request or dribble one: `talk` runs once connected
 * and may keep writing; the reply is whatever the host sent until it closed the connection.
 */
function exchange(port: number, talk: (client: RawClient) => unknown, giveUpMs = 5_000): Promise<Reply> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const finish = (closed: boolean) => {
      clearTimeout(giveUp);
      socket.destroy();
      const [headers = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const raw = rest.join('\r\n\r\n');
      const body = /^transfer-encoding: chunked$/im.test(headers) ? dechunk(raw) : raw;
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body, closed, ms: Date.now() - started });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      const client: RawClient = {
        write: (bytes) => void (!socket.destroyed && socket.write(bytes)),
        send: (bytes) =>
          new Promise<void>((taken) => {
            if (socket.destroyed || socket.write(bytes)) return taken();
            socket.once('drain', taken);
            socket.once('close', taken);
          }),
        closed: () => socket.destroyed,
      };
      void Promise.resolve(talk(client)).catch(() => {});
    });
  });
}

/** Writes a byte every `everyMs` for as long as the host keeps the connection open. */
async function dribble(client: RawClient, everyMs = 50): Promise<void> {
  while (!client.closed()) {
    client.write('x');
    await sleep(everyMs);
  }
}

/** The host's limit, written out: the test holds the host to the number its message promises. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const SHORT: HostTimeouts = { headersMs: 300, requestMs: 600, keepAliveMs: 300, closeGraceMs: 300 };
const SLACK_MS = 500;

let dir: string;
let lockCalls = 0;
let lockDelayMs = 0;
/** The real table, except that actor:lock counts its calls and can be made slow. */
const counting: HandlerTable = {
  ...handlers,
  'actor:lock': async () => {
    lockCalls += 1;
    await sleep(lockDelayMs);
    return { locked: true as const };
  },
};
let host: RunningHost;
let slowHost: RunningHost;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-host-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>workbench</title>');
  const session = testSession({ userDataDir: join(dir, 'user') });
  host = await startHost({ session, handlers: counting, rendererDir });
  slowHost = await startHost({ session, handlers: counting, rendererDir, timeouts: SHORT });
});
afterAll(async () => {
  await host.close();
  await slowHost.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  lockCalls = 0;
  lockDelayMs = 0;
});

const post = (h: RunningHost, path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${h.port}\r\nx-workbench-token: ${h.token}\r\ncontent-type: application/json\r\n${headers}\r\n`;
const get = (h: RunningHost, path: string) => `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${h.port}\r\nconnection: close\r\n\r\n`;

describe('request bodies over 8 MiB', () => {
  const tooLarge = { ok: false, error: { code: 'VALIDATION', message: 'actor:lock: request body exceeds 8 MiB (8388608 bytes); send less' } };

  it('answer 413 with the envelope as soon as Content-Length says so, run no handler, and close', async () => {
    // Only the first KiB of the declared body is ever sent: the answer cannot have waited for the rest.
    const reply = await exchange(host.port, ({ write }) => write(post(host, '/api/actor:lock', `content-length: ${MAX_BODY_BYTES + 1}\r\n`) + '{'.padEnd(1024, ' ')));
    expect(reply).toMatchObject({ status: 413, closed: true });
    expect(reply.headers).toMatch(/^connection: close$/im);
    expect(JSON.parse(reply.body)).toEqual(tooLarge);
    expect(lockCalls).toBe(0);
  });

  it('answer 413 instead of 100 Continue to a client that asks before uploading', async () => {
    const reply = await exchange(host.port, ({ write }) => write(post(host, '/api/actor:lock', `content-length: ${MAX_BODY_BYTES + 1}\r\nexpect: 100-continue\r\n`)));
    expect(reply).toMatchObject({ status: 413, closed: true });
    expect(reply.headers).not.toContain('100 Continue');
    expect(lockCalls).toBe(0);
  });

  /** Sends a chunked body of `total` bytes in 64 KiB pieces, each once the host took the last, until it is sent or the host closes; how much went. */
  async function streamBody(client: RawClient, total: number): Promise<number> {
    const piece = ' '.repeat(64 * 1024);
    let sent = 0;
    await client.send(post(host, '/api/actor:lock', 'transfer-encoding: chunked\r\n'));
    while (!client.closed() && sent < total) {
      const part = piece.slice(0, Math.min(piece.length, total - sent));
      await client.send(`${part.length.toString(16)}\r\n${part}\r\n`);
      sent += part.length;
    }
    return sent;
  }

  it('answer 413 once a streamed body of no declared length passes 8 MiB', async () => {
    // One byte over the limit, chunked with no Content-Length, then the client waits. (Raw: fetch may
    // fail its upload when the host closes mid-body, before it hands over the answer.)
    const reply = await exchange(host.port, (client) => streamBody(client, MAX_BODY_BYTES + 1), 30_000);
    expect(reply).toMatchObject({ status: 413, closed: true });
    expect(reply.headers).toMatch(/^connection: close$/im);
    expect(JSON.parse(reply.body)).toEqual(tooLarge);
    expect(lockCalls).toBe(0);
  });

  it('stop reading a streamed body once it passes 8 MiB, and close the connection', async () => {
    // Six times the limit, each piece once the host took the last. The host closes with the
    // client's bytes unread, so the kernel may reset the connection before the client reads the
    // 413 (the test above reads it): what is held here is that the host stopped taking bytes.
    let sent = 0;
    const reply = await exchange(host.port, async (client) => (sent = await streamBody(client, 6 * MAX_BODY_BYTES)), 30_000);
    expect(reply.closed).toBe(true);
    expect([0, 413]).toContain(reply.status);
    expect(lockCalls).toBe(0);
    // The limit, plus what the sockets' buffers took (on loopback the kernel may buffer several MiB each way).
    expect(sent).toBeLessThan(4 * MAX_BODY_BYTES);
  });

  it('still carry a body of exactly 8 MiB to the handler', async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/api/actor:lock`, {
      method: 'POST',
      headers: { 'x-workbench-token': host.token, 'content-type': 'application/json' },
      body: '{}'.padEnd(MAX_BODY_BYTES, ' '),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, value: { locked: true } });
    expect(lockCalls).toBe(1);
  });
});

describe('slow clients', () => {
  it('a body dribbled a byte at a time is cut with 408 once the request timeout passes', async () => {
    const reply = await exchange(slowHost.port, async (client) => {
      client.write(post(slowHost, '/api/actor:lock', 'content-length: 1000\r\n'));
      await dribble(client);
    });
    expect(reply).toMatchObject({ status: 408, closed: true });
    expect(reply.ms).toBeGreaterThanOrEqual(SHORT.requestMs - 50);
    expect(reply.ms).toBeLessThan(SHORT.requestMs + SLACK_MS);
    expect(lockCalls).toBe(0);
  });

  it('headers dribbled a byte at a time are cut with 408 once the headers timeout passes', async () => {
    const reply = await exchange(slowHost.port, async (client) => {
      client.write(`POST /api/actor:lock HTTP/1.1\r\nhost: 127.0.0.1:${slowHost.port}\r\nx-dribble: `);
      await dribble(client);
    });
    expect(reply).toMatchObject({ status: 408, closed: true });
    expect(reply.ms).toBeGreaterThanOrEqual(SHORT.headersMs - 50);
    expect(reply.ms).toBeLessThan(SHORT.headersMs + SLACK_MS);
    expect(lockCalls).toBe(0);
  });

  it('a connection that never sends a request is closed once the headers timeout passes', async () => {
    const reply = await exchange(slowHost.port, () => {});
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(SHORT.headersMs + SLACK_MS);
  });

  it('an idle kept-alive connection is closed after the keep-alive timeout', async () => {
    const reply = await exchange(slowHost.port, ({ write }) => write(post(slowHost, '/api/actor:lock', 'content-length: 2\r\n') + '{}'));
    expect(reply).toMatchObject({ status: 200, closed: true });
    expect(reply.ms).toBeLessThan(SHORT.keepAliveMs + 1_000 + SLACK_MS);
  });

  it('a handler slower than the request timeout is not cut: the timeouts bound the client, not the work', async () => {
    lockDelayMs = SHORT.requestMs * 2;
    const reply = await exchange(slowHost.port, ({ write }) => write(post(slowHost, '/api/actor:lock', 'content-length: 2\r\nconnection: close\r\n') + '{}'));
    expect(reply).toMatchObject({ status: 200, closed: true });
    expect(JSON.parse(reply.body)).toEqual({ ok: true, value: { locked: true } });
    expect(lockCalls).toBe(1);
  });
});

describe('closing the host', () => {
  const lock = (h: RunningHost) => post(h, '/api/actor:lock', 'content-length: 2\r\n') + '{}';
  /** Keep-alive far beyond the test, so only the host's close can end a kept-alive connection in time. */
  const LONG_KEEP_ALIVE = { ...SHORT, keepAliveMs: 60_000 };

  it('a request in flight is answered, and its kept-alive connection is cut after the grace period', async () => {
    // Node's server.close() leaves such a connection open until its keep-alive runs out, and a
    // window that keeps sending on it would hold the host open for ever.
    const closing = await startHost({ session: testSession({ userDataDir: join(dir, 'closing-busy') }), handlers: counting, timeouts: LONG_KEEP_ALIVE });
    lockDelayMs = 200;
    const inFlight = exchange(closing.port, ({ write }) => write(lock(closing)), 10_000);
    await sleep(100);
    const started = Date.now();
    await closing.close();
    const tookMs = Date.now() - started;
    const reply = await inFlight;
    expect(reply).toMatchObject({ status: 200, closed: true });
    expect(JSON.parse(reply.body)).toEqual({ ok: true, value: { locked: true } });
    expect(tookMs).toBeGreaterThanOrEqual(SHORT.closeGraceMs - 50);
    expect(tookMs).toBeLessThan(SHORT.closeGraceMs + SLACK_MS);
  });

  it('an idle kept-alive connection is dropped at once', async () => {
    const closing = await startHost({ session: testSession({ userDataDir: join(dir, 'closing-idle') }), handlers: counting, timeouts: { ...LONG_KEEP_ALIVE, closeGraceMs: 10_000 } });
    const idle = exchange(closing.port, ({ write }) => write(lock(closing)), 10_000);
    await sleep(200);
    const started = Date.now();
    await closing.close();
    expect(Date.now() - started).toBeLessThan(SLACK_MS);
    expect(await idle).toMatchObject({ status: 200, closed: true });
    expect(lockCalls).toBe(1);
  });
});

describe('malformed request targets', () => {
  it.each(['/api/%E0%A4%A', '/api/%zz', '/api/actor%3Alock%'])('%s answers 400 with a VALIDATION envelope, not 500', async (path) => {
    const reply = await exchange(host.port, ({ write }) => write(post(host, path, 'content-length: 2\r\nconnection: close\r\n') + '{}'));
    expect(reply.status).toBe(400);
    const envelope = JSON.parse(reply.body);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(envelope.error.message).toContain('malformed percent-escape');
    expect(lockCalls).toBe(0);
  });

  it.each(['/%zz', '/assets/%E0%A4%A'])('the static path %s answers a plain 400, not 500', async (path) => {
    const reply = await exchange(host.port, ({ write }) => write(get(host, path)));
    expect(reply.status).toBe(400);
    expect(reply.headers).toMatch(/^content-type: text\/plain/im);
    expect(reply.body).toContain('malformed percent-escape');
  });

  it('an absolute-form target that is no URL answers 400, not 500', async () => {
    const reply = await exchange(host.port, ({ write }) => write(get(host, 'http://[')));
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('not a URL');
  });

  it('the token is still checked first: a malformed API path without it is 403', async () => {
    const reply = await exchange(host.port, ({ write }) => write(`POST /api/%zz HTTP/1.1\r\nhost: 127.0.0.1:${host.port}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`));
    expect(reply.status).toBe(403);
  });
});

describe('/favicon.ico', () => {
  it('answers 204 No Content instead of 404, with or without a renderer build', async () => {
    const apiOnly = await startHost({ session: testSession({ userDataDir: join(dir, 'api-only') }), handlers: counting });
    try {
      for (const h of [host, apiOnly]) {
        const reply = await exchange(h.port, ({ write }) => write(get(h, '/favicon.ico')));
        expect(reply).toMatchObject({ status: 204, body: '' });
      }
    } finally {
      await apiOnly.close();
    }
  });
});
