import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../core/handlers';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../testing/testCase';
import { startHost, type RunningHost } from './server';

interface Answer {
  status: number;
  body: string;
}

function post(host: RunningHost, path: string, headers: Record<string, string>, body = '{}'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: host.port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let data = '';
        res.on('data', (c: Buffer) => (data += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

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

const own = () => ({ host: `127.0.0.1:${host.port}`, 'x-workbench-token': host.token });

describe('loopback host', () => {
  it('binds 127.0.0.1 only', () => {
    expect(host.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
  });

  it('answers a call with the right token, Host and Origin', async () => {
    const res = await post(host, '/api/case:info', { ...own(), origin: host.origin });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { name: 'Test case' } });
  });

  type Tamper = (headers: Record<string, string>, port: number) => void;
  it.each<[string, Tamper, string]>([
    ['a missing token', (h) => delete h['x-workbench-token'], 'launch token'],
    ['a wrong token', (h) => (h['x-workbench-token'] = 'not-the-token'), 'launch token'],
    ['a token of the wrong length', (h) => (h['x-workbench-token'] = 'x'), 'launch token'],
    ['a foreign Origin', (h) => (h.origin = 'http://evil.example'), 'Origin'],
    ['a different loopback port as Origin', (h) => (h.origin = 'http://127.0.0.1:1'), 'Origin'],
    ['a foreign Host (DNS rebinding)', (h) => (h.host = 'evil.example'), 'Host'],
    ['a rebinding Host on our port', (h, port) => (h.host = `attacker.test:${port}`), 'Host'],
  ])('rejects %s with 403', async (_label, tamper, mentions) => {
    const headers: Record<string, string> = { ...own() };
    tamper(headers, host.port);
    const res = await post(host, '/api/case:info', headers);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toContain(mentions);
  });

  it('takes an uploaded file into the inbox with the token only, and an import of it answers a job', async () => {
    expect((await post(host, '/upload', { host: `127.0.0.1:${host.port}` }, 'x')).status).toBe(403);
    expect((await post(host, '/upload', { ...own(), 'x-workbench-token': 'y'.repeat(host.token.length) }, 'x')).status).toBe(403);
    const empty = await post(host, '/upload', own(), '');
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).error.message).toMatch(/the file is empty/);
    const up = await post(host, '/upload', own(), '{"prefix": {"ex": "http://example.org/"}, "entity": {"ex:a": {}}}');
    expect(up.status).toBe(200);
    const { uploadId } = JSON.parse(up.body).value as { uploadId: string };
    expect(uploadId).toMatch(/^up-[A-Za-z0-9_-]{24}$/);
    await post(host, '/api/actor:unlock', own(), JSON.stringify({ actorId: 'admin', passphrase: TEST_PASSPHRASE }));
    const job = await post(host, '/api/import:start', own(), JSON.stringify({ source: { upload: uploadId } }));
    expect(JSON.parse(job.body)).toMatchObject({ ok: true, value: { format: 'prov', path: 'the dropped file (uploaded)' } });
  });

  it('never runs a handler for a rejected request', async () => {
    const before = (await tc.call('audit:head', {})).seq;
    const res = await post(host, '/api/actor:create', { ...own(), origin: 'http://evil.example' }, JSON.stringify({ actorId: 'mallory', displayName: 'M', role: 'admin', tenants: ['*'], maxClassification: 'restricted' }));
    expect(res.status).toBe(403);
    expect((await tc.call('audit:head', {})).seq).toBe(before);
    expect((await tc.call('actor:list', {})).map((a) => a.actorId)).not.toContain('mallory');
  });

  it('answers VALIDATION with zod paths for a malformed request', async () => {
    const res = await post(host, '/api/evidence:list', own(), JSON.stringify({ limit: 'fifty' }));
    const env = JSON.parse(res.body);
    expect(env.ok).toBe(false);
    expect(env.error.code).toBe('VALIDATION');
    expect(env.error.issues[0].path).toEqual(['limit']);
  });

  it('answers non-JSON bodies and unknown channels with clear errors', async () => {
    const bad = JSON.parse((await post(host, '/api/case:info', own(), '{oops')).body);
    expect(bad.error).toMatchObject({ code: 'VALIDATION', message: 'case:info: request body is not JSON' });
    const unknown = JSON.parse((await post(host, '/api/case:drop', own())).body);
    expect(unknown.error.code).toBe('NOT_FOUND');
  });
});
