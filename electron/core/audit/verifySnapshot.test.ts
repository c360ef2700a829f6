import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, type TestCase } from '../../testing/testCase';

/**
 * Issue 9.3: verify raised false alarms while anything wrote, the app's own worker included,
 * because the receipt walk and the state checks were not one read ("claim exists but no receipt
 * names it"). audit:verify now reads one snapshot on a connection of its own.
 */
let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('audit:verify during a write burst', () => {
  it('never reports a break that is not there, 10 times out of 10', async () => {
    for (let i = 0; i < 40; i++) await tc.call('claim:create', { claimId: `cl-seed-${i}`, statement: `seed ${i}`, tenant: 'acme', classification: 'internal' });
    let n = 0;
    for (let round = 0; round < 10; round++) {
      const verifying = tc.raw('audit:verify', {});
      // Writes land while the verification awaits its signature checks.
      const burst = (async () => {
        for (let i = 0; i < 5; i++) {
          await new Promise((r) => setImmediate(r));
          await tc.call('claim:create', { claimId: `cl-burst-${n++}`, statement: 'written during verify', tenant: 'acme', classification: 'internal' });
        }
      })();
      const [answer] = await Promise.all([verifying, burst]);
      expect(answer).toMatchObject({ ok: true, value: { ok: true } });
    }
    expect(n).toBe(50);
    expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true, length: 1 + 40 + 50 });
  });
});
