import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { startWorkerLoop, workerLoopStatus } from './loop';
import { ACTORS, addActors, bulkDependents, validatedRevision } from '../../testing/workerScenario';

let tc: TestCase;
let loop: { stop: () => void } | null = null;
beforeEach(async () => {
  tc = await createTestCase();
  await addActors(tc);
});
afterEach(() => {
  loop?.stop();
  tc.cleanup();
});

describe('background worker loop', () => {
  it('converges in the background page by page while calls keep being answered in between', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    bulkDependents(tc.session.db(), a, 2_000);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    loop = startWorkerLoop(tc.session.session, { fanOut: 100, idleMs: 10 });
    const seen: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const status = await tc.call('revocation:status', {});
      seen.push(status.revocations[0]!.dependentsConverged);
      if (status.openJobs === 0) break;
      await new Promise((r) => setImmediate(r));
    }
    expect(seen[seen.length - 1]).toBe(2_000);
    // Answers arrived while convergence was part-way: the loop yields between pages.
    expect(seen.some((n) => n > 0 && n < 2_000)).toBe(true);
    expect(workerLoopStatus()).toMatchObject({ mode: 'loop', running: true, lastError: null });
    expect(workerLoopStatus().jobsProcessed).toBeGreaterThanOrEqual(20);
    expect((await tc.call('claim:get', { claimId: 'cl-bulk-000000' })).pendingRevalidation).toBe(false);
    loop.stop();
    expect(workerLoopStatus().running).toBe(false);
  });
});
