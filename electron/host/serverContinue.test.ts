import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../core/handlers';
import { DEFAULT_MAX_BUNDLE_BYTES } from '../../shared/interchange/bundle';
import { ask } from '../testing/httpAsk';
import { createTestCase, type TestCase } from '../testing/testCase';
import { startHost, TOKEN_HEADER, type RunningHost } from './server';

/**
 * How the loopback host answers a client that asks before sending its body (Expect:
 * 100-continue), and that its size limits take a body of exactly the limit. Apart from
 * serverAnswers.test.ts, which covers what every answer carries.
 */
let tc: TestCase;
let host: RunningHost;
beforeAll(async () => {
  tc = await createTestCase();
  host = await startHost({ session: tc.session.session, handlers });
});
afterAll(async () => {
  await host.close();
  tc.cleanup();
});

describe('Expect: 100-continue', () => {
  /**
   * Asks with Expect: 100-continue and sends the body only when told to continue; `body` null
   * hangs up once told to continue (the answer to the question is all the test wants).
   */
  function askFirst(path: string, declared: number, body: string | null, to = host): Promise<{ status: number; continued: boolean }> {
    return new Promise((resolve, reject) => {
      let continued = false;
      const req = request({
        host: '127.0.0.1',
        port: to.port,
        path,
        method: 'POST',
        headers: { host: `127.0.0.1:${to.port}`, 'content-type': 'application/json', [TOKEN_HEADER]: to.token, 'content-length': String(declared), expect: '100-continue' },
      });
      req.on('continue', () => {
        continued = true;
        if (body !== null) return void req.end(body);
        req.destroy();
        resolve({ status: 0, continued });
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
      });
      req.on('error', (err) => (continued && body === null ? undefined : reject(err)));
    });
  }

  it('lets a small body come, and answers 413 without asking for one over the limit', async () => {
    expect(await askFirst('/api/case:info', 2, '{}')).toEqual({ status: 200, continued: true });
    expect(await askFirst('/api/case:info', 8 * 1024 * 1024 + 1, '')).toEqual({ status: 413, continued: false });
    // /upload has the file limit, not the request limit.
    expect(await askFirst('/upload', 8 * 1024 * 1024 + 1, null)).toEqual({ status: 0, continued: true });
    expect(await askFirst('/upload', DEFAULT_MAX_BUNDLE_BYTES + 1, '')).toEqual({ status: 413, continued: false });
  });

  it('asks for a body of exactly the limit', async () => {
    // Short timeouts: were the body not asked for, the request would wait for it until timed out
    // (408); asked for, 8 MiB of spaces arrive well within them and are refused as no JSON (400).
    const quick = await startHost({ session: tc.session.session, handlers, timeouts: { headersMs: 3_000, requestMs: 3_000 } });
    try {
      const limit = 8 * 1024 * 1024;
      expect(await askFirst('/api/case:info', limit, ' '.repeat(limit), quick)).toEqual({ status: 400, continued: true });
    } finally {
      await quick.close();
    }
  });
});

describe('size limits are inclusive', () => {
  it('reads a body of exactly the limit (here it never comes, so the request times out instead of 413)', async () => {
    const quick = await startHost({ session: tc.session.session, handlers, timeouts: { headersMs: 400, requestMs: 400 } });
    try {
      const headers = { host: `127.0.0.1:${quick.port}`, 'content-type': 'application/json', [TOKEN_HEADER]: quick.token };
      const api = await ask(quick, 'POST', '/api/case:info', { ...headers, 'content-length': String(8 * 1024 * 1024) }, '');
      expect(api.status).toBe(408);
      const upload = await ask(quick, 'POST', '/upload', { ...headers, 'content-length': String(DEFAULT_MAX_BUNDLE_BYTES) }, '');
      expect(upload.status).not.toBe(413);
    } finally {
      await quick.close();
    }
  });

  it('answers an accepted upload with ok and its id', async () => {
    const res = await ask(host, 'POST', '/upload', { [TOKEN_HEADER]: host.token }, '{"entity": {}}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: { uploadId: expect.stringMatching(/^up-/) as unknown, bytes: 14 } });
  });
});
