import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTeamServer } from '../../testing/teamServer';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, claimOn, validatedRevision } from '../../testing/workerScenario';
import { readCaseMeta } from '../services/caseMeta';
import { claimNextJob, openJobCount, runWorker } from '../worker/outbox';
import { convergeCase } from './converger';
import { convergerStanding, releaseConvergerLease, renewConvergerLease, takeConvergerLease } from './convergerLease';
import { publishCase, pushCase } from './publish';
import { readReceipts, teamHead } from './teamStore';
import { checkServedChain } from './servedChain';

const server = useTeamServer();
let admin: pg.Client;
/** A second connection, for a second worker. */
let other: pg.Client;
beforeAll(async () => {
  ({ admin } = server);
  other = new pg.Client({ connectionString: server.cluster.url });
  await other.connect();
});
afterAll(async () => {
  await other?.end();
});

let tc: TestCase;
let caseId: string;
beforeEach(async () => {
  tc = await createTestCase();
  await addActors(tc);
  caseId = readCaseMeta(tc.session.db()).caseId;
});
afterEach(() => tc.cleanup());

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Three claims resting on one revision, which the revoker revokes: a fence and its outbox jobs. */
async function revokedUnderClaims(): Promise<string> {
  const a1 = await validatedRevision(tc, 'ev-a');
  for (const claimId of ['cl-1', 'cl-2', 'cl-3']) await claimOn(tc, claimId, [{ revisionId: a1, role: 'REQUIRED' }]);
  tc.as(ACTORS.revoker);
  await tc.call('evidence:transition', { revisionId: a1, to: 'REVOKED', reason: 'the export was forged' });
  return a1;
}

const serverActions = async () => (await readReceipts(admin, caseId, 0, 100_000)).map((r) => r.action);

describe('the converger lease', () => {
  it('goes to one worker at a time, and a take never waits on one in progress (SKIP LOCKED)', async () => {
    await publishCase(tc.session.db(), admin);
    // Two takes at once on two connections: exactly one gets the lease.
    const both = await Promise.all([takeConvergerLease(admin, caseId, 'w1'), takeConvergerLease(other, caseId, 'w2')]);
    expect(both.filter((l) => l !== null)).toHaveLength(1);
    const winner = both.find((l) => l !== null)!;
    expect(await convergerStanding(admin, caseId)).toMatchObject({ holder: winner.holder });
    expect(await takeConvergerLease(other, caseId, winner.holder === 'w1' ? 'w2' : 'w1')).toBeNull();
    await releaseConvergerLease(admin, winner);
    expect(await convergerStanding(admin, caseId)).toEqual({ holder: null, expiresAt: null });

    // A take in progress holds the row; another take skips it at once instead of queueing behind it.
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM erwb.team_converger WHERE case_id = $1 FOR UPDATE', [caseId]);
    await admin.query(`SET statement_timeout = '2s'`);
    try {
      const started = Date.now();
      expect(await takeConvergerLease(admin, caseId, 'w1')).toBeNull();
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await admin.query('RESET statement_timeout');
      await other.query('ROLLBACK');
    }
    expect(await takeConvergerLease(admin, caseId, 'w1')).not.toBeNull();
  });

  it('is fenced: a worker whose lease expired and was taken over can neither renew it nor append under it', async () => {
    await revokedUnderClaims();
    await publishCase(tc.session.db(), admin);
    // Taking the lease again, even by the same holder, retires the token it held before.
    const first = (await takeConvergerLease(admin, caseId, 'w1', 60_000))!;
    const stale = (await takeConvergerLease(admin, caseId, 'w1', 200))!;
    expect(await renewConvergerLease(admin, first)).toBe(false);
    expect(await takeConvergerLease(other, caseId, 'w2', 200)).toBeNull();
    runWorker(tc.session.context(), { owner: 'w1', maxJobs: 10 });
    const before = await teamHead(admin, caseId);
    await expect(pushCase(tc.session.db(), admin, { lease: first })).rejects.toThrow(/does not hold the case's converger lease/);
    await sleep(300);
    // Expired and not yet taken by anyone: still no append under it.
    await expect(pushCase(tc.session.db(), admin, { lease: stale })).rejects.toThrow(/does not hold the case's converger lease/);
    const fresh = (await takeConvergerLease(other, caseId, 'w2', 60_000))!;
    expect(BigInt(fresh.token)).toBe(BigInt(stale.token) + 1n);
    expect(await renewConvergerLease(admin, stale)).toBe(false);

    // The stale worker pushes what it converged under its old lease: refused, nothing written.
    await expect(pushCase(tc.session.db(), admin, { lease: stale })).rejects.toThrow(/does not hold the case's converger lease/);
    expect(await teamHead(admin, caseId)).toEqual(before);
    // A push that carries convergence receipts and no lease takes one for itself, and cannot while w2 holds it.
    await expect(pushCase(tc.session.db(), admin)).rejects.toThrow(/w2 converges case .* on the server.*nothing was pushed/);
    expect(await teamHead(admin, caseId)).toEqual(before);
    // Released, the same push takes the lease for itself, sends everything, and gives the lease back.
    await releaseConvergerLease(other, fresh);
    const pushed = await pushCase(tc.session.db(), admin);
    expect(pushed.pushed).toBeGreaterThan(0);
    expect(await serverActions()).toContain('revocation:converge');
    expect(await convergerStanding(admin, caseId)).toEqual({ holder: null, expiresAt: null });
  });

  it('is the engine\'s rule: a convergence receipt inserted with plain SQL and no lease is refused by PostgreSQL', async () => {
    await publishCase(tc.session.db(), admin);
    const head = (await teamHead(admin, caseId))!;
    const insert = () =>
      admin.query(
        `INSERT INTO erwb.team_receipt (case_id, seq, prev_hash, hash, at, actor, action, scope_tenants, scope_rank, scope_unknown)
         VALUES ($1, $2, $3, $4, '2026-12-05T00:00:00.000Z', 'rev1', 'revocation:converge', '{}', 0, false)`,
        [caseId, head.seq + 1, head.hash, 'f'.repeat(64)],
      );
    await expect(insert()).rejects.toMatchObject({ code: '55P03' });
    expect(await teamHead(admin, caseId)).toEqual(head);
  });
});

describe('one converger per case', () => {
  it('converges a case replica job by job, each receipt pushed under the lease; a second worker meanwhile is told who converges', async () => {
    await revokedUnderClaims();
    await publishCase(tc.session.db(), admin);
    const ctx = tc.session.context();
    expect(openJobCount(ctx.db)).toBeGreaterThan(0);
    const seen: string[] = [];
    let second: Awaited<ReturnType<typeof convergeCase>> | undefined;
    const run = await convergeCase(ctx, admin, {
      holder: 'w1',
      fanOut: 1,
      onEvent: (e) => seen.push(e.kind),
      afterClaim: async () => {
        second ??= await convergeCase(ctx, other, { holder: 'w2' });
      },
    });
    expect(run.status).toBe('converged');
    expect(second).toMatchObject({ status: 'busy', heldBy: 'w1', jobs: [] });
    // fanOut 1 over three dependents: a job per claim, each pushed as it was done.
    expect(run.jobs.length).toBeGreaterThanOrEqual(3);
    expect(seen.filter((k) => k === 'done')).toHaveLength(run.jobs.length);
    expect((await serverActions()).filter((a) => a === 'revocation:converge')).toHaveLength(run.jobs.length);
    const local = tc.session.db().prepare('SELECT seq, hash FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string };
    expect(await teamHead(admin, caseId)).toEqual(local);
    expect(checkServedChain(await readReceipts(admin, caseId, 0, 100_000)).firstBroken).toBeNull();
    expect(await convergerStanding(admin, caseId)).toEqual({ holder: null, expiresAt: null });
    // Nothing left: a second run takes the lease, finds no job, and leaves the server as it was.
    expect(await convergeCase(ctx, other, { holder: 'w2' })).toMatchObject({ status: 'converged', jobs: [] });
    expect(await teamHead(admin, caseId)).toEqual(local);
  });

  it('leaves a job held by another local worker to it, and says whose lease holds it and until when', async () => {
    await revokedUnderClaims();
    await publishCase(tc.session.db(), admin);
    const ctx = tc.session.context();
    const open = openJobCount(ctx.db);
    // A worker on this machine took a job and stopped (killed, say) while its lease runs.
    const held = claimNextJob(ctx.db, { owner: 'worker:4242', leaseMs: 60_000 });
    expect(held).not.toBeNull();
    const before = Date.now();
    const run = await convergeCase(ctx, admin, { holder: 'w1' });
    expect(run.status).toBe('pending');
    expect(run.openJobs).toBe(1);
    expect(run.jobs.map((j) => j.jobId)).not.toContain(held!.job_id);
    expect(run.jobs.length).toBeGreaterThanOrEqual(open - 1);
    expect(run.heldLocally).toEqual({ owner: 'worker:4242', expiresAt: held!.lease_expires_at });
    expect(run.heldLocally!.expiresAt).toBeGreaterThan(before);
    // Once its lease has run out the job is anyone's: a later run converges it.
    tc.session.db().prepare('UPDATE outbox_job SET lease_expires_at = ? WHERE job_id = ?').run(Date.now() - 1, held!.job_id);
    expect(await convergeCase(ctx, admin, { holder: 'w1' })).toMatchObject({ status: 'converged', openJobs: 0, heldLocally: null });
  });

  it('stops when its lease is taken over mid-run, and the job it converged locally never reaches the server', async () => {
    await revokedUnderClaims();
    await publishCase(tc.session.db(), admin);
    const run = await convergeCase(tc.session.context(), admin, {
      holder: 'w1',
      leaseMs: 200,
      fanOut: 1,
      afterClaim: async () => {
        await sleep(300);
        expect(await takeConvergerLease(other, caseId, 'w2', 60_000)).not.toBeNull();
      },
    });
    expect(run).toMatchObject({ status: 'lost', heldBy: 'w2', jobs: [] });
    expect(await serverActions()).not.toContain('revocation:converge');
  });
});
