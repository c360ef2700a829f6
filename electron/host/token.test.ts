import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../core/handlers';
import { createTestCase, type TestCase } from '../testing/testCase';
import { startHost, type RunningHost } from './server';

/**
 * Issue 13: the token check reduced to comparing lengths passed the suite, whose wrong tokens
 * were 13 and 1 characters long while the real one is 32. A wrong token of the right length, one
 * character off anywhere, must be refused.
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

const call = (token: string) =>
  fetch(`http://127.0.0.1:${host.port}/api/case:info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-workbench-token': token }, body: '{}' });

describe('the launch token', () => {
  it('refuses a wrong token of the same length, one character off at the start, the middle or the end', async () => {
    expect(host.token).toHaveLength(32);
    for (const at of [0, 16, 31]) {
      const c = host.token[at] === 'A' ? 'B' : 'A';
      const wrong = host.token.slice(0, at) + c + host.token.slice(at + 1);
      expect(wrong).toHaveLength(host.token.length);
      const res = await call(wrong);
      expect(res.status, `one character off at ${at}`).toBe(403);
    }
    expect((await call(host.token)).status).toBe(200);
  });
});
