import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkbenchError } from '../errors';
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
  it('is reported as manual and not running until a loop starts (this file runs it first)', () => {
    expect(workerLoopStatus()).toEqual({ mode: 'manual', running: false, jobsProcessed: 0, lastRunAt: null, lastError: null });
  });

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
    // Its lease was taken under a name of its own, so two loops never mistake each other's lease.
    const owners = tc.session.db().prepare('SELECT DISTINCT lease_owner FROM outbox_job').pluck().all();
    expect(owners).toEqual([expect.stringMatching(new RegExp(`^loop:${process.pid}:[0-9a-f]{8}$`))]);
    loop.stop();
    expect(workerLoopStatus().running).toBe(false);
  });
});

describe('background worker loop, when it cannot work', () => {
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(done()).toBe(true);
  };

  it('waits quietly while nobody is unlocked to sign, and converges once someone is', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    bulkDependents(tc.session.db(), a, 10);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    await tc.call('actor:lock', {});
    const lines: string[] = [];
    const session = Object.create(tc.session.session, { log: { value: (line: string) => void lines.push(line) } }) as typeof tc.session.session;
    loop = startWorkerLoop(session, { fanOut: 100, idleMs: 5 });
    await until(() => workerLoopStatus().lastError !== null);
    expect(workerLoopStatus().lastError).toBe('the revocation worker waits for a reviewer to unlock this case to sign its receipts');
    expect(lines).toEqual([]);
    tc.as(ACTORS.revoker);
    await until(() => workerLoopStatus().lastError === null && workerLoopStatus().jobsProcessed > 0);
    expect((await tc.call('revocation:status', {})).openJobs).toBe(0);
  });

  it.each([
    ['an error', () => new Error('the case file went away')],
    ['a workbench error other than LOCKED', () => new WorkbenchError('BUSY', 'the case file went away')],
  ])('logs any other failure (%s), says it in revocation:status, and tries again after the backoff', async (_kind, failure) => {
    let attempts = 0;
    const lines: string[] = [];
    const session = Object.create(tc.session.session, {
      workerContext: {
        value: () => {
          attempts += 1;
          throw failure();
        },
      },
      log: { value: (line: string) => void lines.push(line) },
    }) as typeof tc.session.session;
    loop = startWorkerLoop(session, { idleMs: 5, errorBackoffMs: 5 });
    await until(() => attempts >= 3);
    expect(workerLoopStatus().lastError).toBe('the case file went away');
    expect(lines[0]).toBe('revocation worker: the case file went away');
    loop.stop();
    const after = attempts;
    await new Promise((r) => setTimeout(r, 50));
    expect(attempts).toBe(after);
  });

  it('waits, without touching anything, while no case is open', async () => {
    let asked = 0;
    let ticks = 0;
    const session = Object.create(tc.session.session, {
      casePath: { get: () => ((ticks += 1), null) },
      workerContext: {
        value: () => {
          asked += 1;
          throw new Error('not to be asked');
        },
      },
    }) as typeof tc.session.session;
    loop = startWorkerLoop(session, { idleMs: 20 });
    await new Promise((r) => setTimeout(r, 100));
    expect(asked).toBe(0);
    // Idle, it polls on its timer (about 5 times here), never spinning.
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThan(20);
    expect(workerLoopStatus().running).toBe(true);
  });
});
