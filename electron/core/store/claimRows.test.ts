import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeGeneration } from './claimRows';
import { createTestCase, type TestCase } from '../../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('a claim generation', () => {
  // The services read the generation first; this is the compare-and-swap that holds when another
  // writer moved the claim between that read and the write.
  it('moves only from the generation read: a stale one is a conflict, and nothing is written', async () => {
    await tc.call('claim:create', { claimId: 'cl-a', statement: 'the backup account exfiltrated data', tenant: 'acme', classification: 'internal' });
    const ctx = tc.session.context();
    const generation = () => ctx.db.prepare(`SELECT generation FROM claim WHERE claim_id = 'cl-a'`).pluck().get() as number;
    const read = generation();
    expect(ctx.db.transaction(() => writeGeneration(ctx, 'claim:bind', 'cl-a', read, []))()).toBe(read + 1);
    expect(() => ctx.db.transaction(() => writeGeneration(ctx, 'claim:bind', 'cl-a', read, []))()).toThrow(
      'claim:bind: claim cl-a changed generation while you were deciding; reload and try again',
    );
    expect(generation()).toBe(read + 1);
  });
});
