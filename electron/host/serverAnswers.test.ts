import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp';
import { handlers } from '../core/handlers';
import { DEFAULT_MAX_BUNDLE_BYTES } from '../../shared/interchange/bundle';
import type { Session } from '../core/session';
import { ask, type Answer } from '../testing/httpAsk';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../testing/testCase';
import { SEAT_HEADER, startHost, TOKEN_HEADER, type RunningHost } from './server';

/**
 * What every answer of the loopback host carries, what it serves from the renderer build, and how
 * it tells browser tabs apart: the parts of server.ts the request-refusal tests (server.test.ts)
 * do not reach, found by mutation testing (issue 13).
 */

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': CONTENT_SECURITY_POLICY,
};

const RENDERER_FILES: [string, string][] = [
  ['index.html', 'text/html; charset=utf-8'],
  ['assets/app.js', 'text/javascript; charset=utf-8'],
  ['assets/app.css', 'text/css; charset=utf-8'],
  ['assets/logo.svg', 'image/svg+xml'],
  ['assets/shot.png', 'image/png'],
  ['assets/strings.json', 'application/json'],
  ['assets/font.woff2', 'font/woff2'],
  ['assets/blob.bin', 'application/octet-stream'],
];

let tc: TestCase;
let host: RunningHost;
let rendererDir: string;
beforeAll(async () => {
  tc = await createTestCase();
  rendererDir = mkdtempSync(join(tmpdir(), 'erwb-renderer-'));
  for (const [file] of RENDERER_FILES) {
    mkdirSync(join(rendererDir, file, '..'), { recursive: true });
    writeFileSync(join(rendererDir, file), `contents of ${file}`);
  }
  writeFileSync(join(rendererDir, '..', 'beside-the-renderer.txt'), 'not served');
  host = await startHost({ session: tc.session.session, handlers, rendererDir });
});
afterAll(async () => {
  await host.close();
  tc.cleanup();
  rmSync(join(rendererDir, '..', 'beside-the-renderer.txt'), { force: true });
  rmSync(rendererDir, { recursive: true, force: true });
});

const api = (channel: string, body: unknown, extra: Record<string, string> = {}) =>
  ask(host, 'POST', `/api/${channel}`, { 'content-type': 'application/json', [TOKEN_HEADER]: host.token, ...extra }, JSON.stringify(body));

describe('every answer of the loopback host', () => {
  it.each<[string, () => Promise<Answer>, number]>([
    ['an API call', () => api('case:info', {}), 200],
    ['a refused API call', () => ask(host, 'POST', '/api/case:info'), 403],
    ['a malformed API call', () => api('evidence:list', { limit: 'fifty' }), 200],
    ['the page', () => ask(host, 'GET', '/'), 200],
    ['a missing file', () => ask(host, 'GET', '/nowhere.js'), 404],
    ['a malformed path', () => ask(host, 'GET', '/%zz'), 400],
    ['a POST outside the API', () => ask(host, 'POST', '/index.html'), 405],
    ['the favicon', () => ask(host, 'GET', '/favicon.ico'), 204],
  ])('%s carries no-store, nosniff, no-referrer and the CSP', async (_label, answer, status) => {
    const res = await answer();
    expect(res.status).toBe(status);
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
  });

  it.each<[string, () => Promise<Answer>, number]>([
    ['a request target that is not a URL', () => ask(host, 'GET', 'http://['), 400],
    ['a POST outside the API', () => ask(host, 'POST', '/index.html'), 405],
    ['the favicon', () => ask(host, 'GET', '/favicon.ico'), 204],
  ])('answers %s as plain text', async (_label, answer, status) => {
    const res = await answer();
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('answers JSON to the API and says so', async () => {
    const res = await api('case:info', {});
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { name: 'Test case' } });
  });
});

describe('the renderer build', () => {
  it.each(RENDERER_FILES)('serves %s as %s', async (file, type) => {
    const res = await ask(host, 'GET', `/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).toBe(`contents of ${file}`);
  });

  it('serves a path with encoded or doubled slashes inside the build', async () => {
    expect((await ask(host, 'GET', '/%2Fassets/app.js')).body).toBe('contents of assets/app.js');
    expect((await ask(host, 'GET', '/assets%2F%2Fapp.css')).body).toBe('contents of assets/app.css');
  });

  it('serves index.html at /', async () => {
    const res = await ask(host, 'GET', '/');
    expect(res.body).toBe('contents of index.html');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it.each([
    ['a file beside the build, by ..', '/..%2Fbeside-the-renderer.txt'],
    ['a file beside the build, by an encoded ..', '/%2e%2e/beside-the-renderer.txt'],
    ['a file beside the build, by an encoded / and ..', '/%2F..%2Fbeside-the-renderer.txt'],
    ['a folder', '/assets'],
    ['a file that is not there', '/assets/none.js'],
  ])('answers 404 to %s', async (_label, path) => {
    const res = await ask(host, 'GET', path);
    expect(res.status).toBe(404);
    expect(res.body).toBe('not found');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('says what is wrong with a malformed escape, and that nothing is served without a build', async () => {
    const bad = await ask(host, 'GET', '/%zz');
    expect(bad.body).toBe("bad request: the path has a malformed percent-escape; write '%' as %25");
    const bare = await startHost({ session: tc.session.session, handlers });
    try {
      const none = await ask(bare, 'GET', '/');
      expect(none.status).toBe(404);
      expect(none.body).toBe('no renderer build is served');
      expect(none.headers['content-type']).toBe('text/plain; charset=utf-8');
    } finally {
      await bare.close();
    }
  });
});

describe('browser tabs', () => {
  const seatOf = (seat: string) => ({ [SEAT_HEADER]: seat });

  it('a tab acts as the reviewer unlocked in it, and only there', async () => {
    const tab = 'tab-a-0123456789abcdef';
    expect(JSON.parse((await api('actor:unlock', { actorId: 'admin', passphrase: TEST_PASSPHRASE }, seatOf(tab))).body)).toMatchObject({ ok: true });
    expect(JSON.parse((await api('claim:list', {}, seatOf(tab))).body)).toMatchObject({ ok: true });
    expect(JSON.parse((await api('claim:list', {}, seatOf('tab-b-0123456789abcdef'))).body)).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    // No seat header at all is the host's own seat, where nobody unlocked either.
    expect(JSON.parse((await api('claim:list', {})).body)).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
  });

  it.each([
    ['16 characters', 'a'.repeat(16)],
    ['64 characters', 'b'.repeat(64)],
    ['digits, - and _', '0123456789-_ABCDxyz'],
  ])('takes a seat id of %s', async (_label, seat) => {
    const res = JSON.parse((await api('case:info', {}, seatOf(seat))).body) as { ok: boolean };
    expect(res.ok).toBe(true);
  });

  it.each([
    ['15 characters', 'a'.repeat(15)],
    ['65 characters', 'a'.repeat(65)],
    ['one character', 'a'],
    ['a character outside the set at the start', `.${'a'.repeat(20)}`],
    ['a character outside the set at the end', `${'a'.repeat(20)}.`],
    ['only characters outside the set', '.'.repeat(20)],
  ])('refuses a seat id of %s, saying what a seat id is', async (_label, seat) => {
    const res = JSON.parse((await api('case:info', {}, seatOf(seat))).body) as { ok: boolean; error: { code: string; message: string } };
    expect(res).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: "x-workbench-seat must be 16 to 64 letters, digits, '-' or '_'" } });
  });
});

describe('bodies too large', () => {
  it('answers 413 and closes the connection, so the rest of the body is never read', async () => {
    const res = await ask(host, 'POST', '/api/case:info', { 'content-type': 'application/json', [TOKEN_HEADER]: host.token, 'content-length': String(9 * 1024 * 1024) }, '');
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: 'case:info: request body exceeds 8 MiB (8388608 bytes); send less' } });
  });
});

describe('a request cut off mid-body', () => {
  it('is given up with the number of bytes that came, and no handler runs', async () => {
    const log = vi.spyOn(tc.session.session, 'log').mockImplementation(() => undefined);
    const before = (await tc.call('audit:head', {})).seq;
    try {
      await new Promise<void>((resolve) => {
        const req = request({
          host: '127.0.0.1',
          port: host.port,
          path: '/api/claim:create',
          method: 'POST',
          headers: { host: `127.0.0.1:${host.port}`, 'content-type': 'application/json', [TOKEN_HEADER]: host.token, 'content-length': '1000' },
        });
        req.on('error', () => resolve());
        req.write('{"claimId":', () => setTimeout(() => req.destroy(), 50));
      });
      await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.stringMatching(/^loopback host: request body cut off after 11 bytes: aborted$/)), { timeout: 5_000 });
      expect((await tc.call('audit:head', {})).seq).toBe(before);
    } finally {
      log.mockRestore();
    }
  });
});

describe('refusals say what was refused', () => {
  const errorOf = (res: Answer) => (JSON.parse(res.body) as { error: { code: string; message: string } }).error;

  it('quotes a foreign Host and Origin, cut to 80 characters', async () => {
    const foreign = await ask(host, 'GET', '/', { host: 'evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'loopback host: Host "evil.example" is not this loopback host' } });
    const long = `http://${'o'.repeat(200)}.example`;
    const quoted = JSON.stringify(long).slice(0, 80);
    expect(errorOf(await ask(host, 'GET', '/', { origin: long }))).toEqual({ code: 'FORBIDDEN', message: `loopback host: Origin ${quoted} may not call the workbench` });
  });

  it('cuts a long foreign Host to 80 characters', async () => {
    const long = `${'h'.repeat(200)}.example`;
    expect(errorOf(await ask(host, 'GET', '/', { host: long }))).toEqual({
      code: 'FORBIDDEN',
      message: `loopback host: Host ${JSON.stringify(long).slice(0, 80)} is not this loopback host`,
    });
  });

  it('quotes an absent Host as empty (an HTTP/1.0 request may leave it out)', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(host.port, '127.0.0.1', () => socket.end('GET / HTTP/1.0\r\n\r\n'));
      let data = '';
      socket.on('data', (c: Buffer) => (data += c.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 403 /);
    expect(raw).toContain('"message":"loopback host: Host \\"\\" is not this loopback host"');
  });

  it('answers 400 to a request target that is not a URL', async () => {
    const res = await ask(host, 'GET', 'http://[');
    expect(res.status).toBe(400);
    expect(res.body).toBe('bad request: the request target is not a URL');
  });

  it('a method other than GET outside the API is refused with 405 and says why', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await ask(host, method, '/index.html');
      expect([res.status, res.body]).toEqual([405, 'method not allowed']);
    }
  });

  it('takes only POST on the API and on /upload', async () => {
    for (const path of ['/api/case:info', '/upload']) {
      const res = await ask(host, 'GET', path, { [TOKEN_HEADER]: host.token });
      expect(res.status).toBe(405);
      expect(errorOf(res)).toEqual({ code: 'VALIDATION', message: 'use POST' });
    }
  });

  it('names a channel with a malformed escape', async () => {
    const res = await api('case%zz', {});
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(`loopback host: path "/api/case%zz" has a malformed percent-escape; name the channel as /api/<channel>, with '%' written %25`);
  });

  it('refuses an upload without the launch token, and says so', async () => {
    const res = await ask(host, 'POST', '/upload', {}, '{}');
    expect(res.status).toBe(403);
    expect(errorOf(res)).toEqual({ code: 'FORBIDDEN', message: 'loopback host: missing or wrong launch token' });
  });

  it('cuts a long malformed channel path to 80 characters', async () => {
    const path = `/api/${'c'.repeat(200)}%zz`;
    const res = await api(`${'c'.repeat(200)}%zz`, {});
    expect(errorOf(res).message).toBe(
      `loopback host: path ${JSON.stringify(path).slice(0, 80)} has a malformed percent-escape; name the channel as /api/<channel>, with '%' written %25`,
    );
  });

  it('refuses an upload over the limit before reading it, and closes the connection', async () => {
    const res = await ask(host, 'POST', '/upload', { [TOKEN_HEADER]: host.token, 'content-length': String(DEFAULT_MAX_BUNDLE_BYTES + 1) }, '');
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(errorOf(res).message).toBe(`upload: the file is larger than the limit of ${DEFAULT_MAX_BUNDLE_BYTES.toLocaleString('en')} bytes`);
  });

  it('closes the connection after refusing an upload it started reading', async () => {
    const res = await ask(host, 'POST', '/upload', { [TOKEN_HEADER]: host.token }, '');
    expect(res.status).toBe(400);
    expect(res.headers.connection).toBe('close');
  });

  it('answers 500 without detail to an error outside the channels, and logs it', async () => {
    const broken = Object.create(tc.session.session) as Session;
    const lines: string[] = [];
    Object.defineProperties(broken, {
      seat: { value: () => { throw new Error('the seat table is broken'); } },
      log: { value: (line: string) => void lines.push(line) },
    });
    const brokenHost = await startHost({ session: broken, handlers });
    try {
      const res = await ask(brokenHost, 'POST', '/api/case:info', { 'content-type': 'application/json', [TOKEN_HEADER]: brokenHost.token, host: `127.0.0.1:${brokenHost.port}` }, '{}');
      expect(res.status).toBe(500);
      expect(JSON.parse(res.body)).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'loopback host error' } });
      expect(lines).toEqual(['loopback host: the seat table is broken']);
    } finally {
      await brokenHost.close();
    }
  });
});

describe('listening', () => {
  it('takes localhost as well as 127.0.0.1 for Host and Origin', async () => {
    const res = await ask(host, 'POST', '/api/case:info', { host: `localhost:${host.port}`, origin: `http://localhost:${host.port}`, 'content-type': 'application/json', [TOKEN_HEADER]: host.token }, '{}');
    expect(res.status).toBe(200);
  });

  it('listens on the port it is given, and refuses one already taken', async () => {
    const first = await startHost({ session: tc.session.session, handlers });
    const port = first.port;
    await first.close();
    const again = await startHost({ session: tc.session.session, handlers, port });
    try {
      expect(again.port).toBe(port);
      await expect(startHost({ session: tc.session.session, handlers, port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await again.close();
    }
  });
});
