import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { verifyOpenCase } from './caseVerification';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

it('verifies a case in full once after opening, shared by whoever asks meanwhile, then routinely', async () => {
  await tc.call('case:open', { path: tc.casePath });
  const gate = verifyOpenCase(tc.session, { full: false });
  const auditView = verifyOpenCase(tc.session, { full: false, options: { signatures: 'every' } });
  expect(auditView).toBe(gate);
  // Another question (only the ends of signing runs) is its own verification.
  const runEnds = verifyOpenCase(tc.session, { full: false, options: { signatures: 'run-ends' } });
  expect(runEnds).not.toBe(gate);
  const [first] = await Promise.all([gate, runEnds]);
  expect(first!).toMatchObject({ ok: true, routine: null });
  const next = verifyOpenCase(tc.session, { full: false });
  expect(next).not.toBe(gate);
  expect(await next).toMatchObject({ ok: true, routine: { since: first!.length } });
});
