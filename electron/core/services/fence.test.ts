import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../context';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, approvedDecision, bulkDependents, claimOn, validatedRevision } from '../../testing/workerScenario';
import { getClaim, listClaims } from './claims';
import { getDecision } from './decisions';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await addActors(tc);
});
afterEach(() => tc.cleanup());

/** A second, independent connection on the case file, reading as the admin: what another window or process sees. */
function secondConnection(): { ctx: ServiceContext; close: () => void } {
  const db = new Database(tc.casePath, { fileMustExist: true });
  const admin = tc.session.actor();
  return { ctx: { db, actor: admin, now: () => new Date().toISOString() }, close: () => db.close() };
}

const receiptCount = () => (tc.session.db().prepare('SELECT COUNT(*) AS n FROM audit_receipt').get() as { n: number }).n;
const count = (table: string) => (tc.session.db().prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

/** ev-derived derives (PROV) from ev-a, and cl-derived requires ev-derived. */
async function claimOnDerived(): Promise<{ a: string; d: string }> {
  const a = await validatedRevision(tc, 'ev-a');
  const d = await validatedRevision(tc, 'ev-derived');
  tc.as(ACTORS.analyst);
  await tc.call('prov:record', { tenant: 'acme', classification: 'internal', edges: [{ type: 'wasDerivedFrom', from: `rev:${d}`, to: `rev:${a}` }] });
  await claimOn(tc, 'cl-derived', [{ revisionId: d, role: 'REQUIRED' }]);
  return { a, d };
}

describe('synchronous fence', () => {
  it('the next read after a revoke commits, from a second connection, shows every dependent as pending revalidation (worker paused)', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const other = await validatedRevision(tc, 'ev-other');
    await claimOn(tc, 'cl-required', [{ revisionId: a, role: 'REQUIRED' }]);
    await claimOn(tc, 'cl-context', [{ revisionId: a, role: 'CONTEXT' }]);
    await claimOn(tc, 'cl-unrelated', [{ revisionId: other, role: 'REQUIRED' }]);
    const decisionId = await approvedDecision(tc, 'cl-required');
    const reader = secondConnection();
    try {
      expect(getClaim(reader.ctx, 'cl-required')).toMatchObject({ projection: 'ELIGIBLE', pendingRevalidation: false });
      expect(getDecision(reader.ctx, decisionId)).toMatchObject({ current: true, effective: true, pendingRevalidation: false });
      tc.as(ACTORS.revoker);
      await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged export' });
      // No worker has run: only the fence written with the transition protects these reads.
      expect(count('projection_ledger')).toBe(0);
      for (const claimId of ['cl-required', 'cl-context']) {
        const got = getClaim(reader.ctx, claimId);
        expect(got).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });
        expect(got.projectionReasons![0]).toContain(`${a}) was REVOKED`);
      }
      // The approved decision resting on it is no longer presented as simply current either.
      expect(getDecision(reader.ctx, decisionId)).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });
      const listed = new Map(listClaims(reader.ctx).map((c) => [c.claimId, c]));
      expect(listed.get('cl-required')).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });
      expect(listed.get('cl-unrelated')).toMatchObject({ projection: 'ELIGIBLE', pendingRevalidation: false });
    } finally {
      reader.close();
    }
  });

  it('a supersede through evidence:revise fences the old revision in the same way', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'SUPPORTING' }]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:revise', { supersedes: a, content: 'corrected', reason: 'corrected upstream' });
    const reader = secondConnection();
    try {
      expect(getClaim(reader.ctx, 'cl-1')).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });
      const fence = reader.ctx.db.prepare('SELECT cause, from_state, supporting_ref FROM revocation_fence').get();
      expect(fence).toEqual({ cause: 'SUPERSEDED', from_state: 'VALIDATED', supporting_ref: 'ev-a@2' });
    } finally {
      reader.close();
    }
  });

  it('writes the fence, the outbox job and the progress row with the transition, under its one receipt', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    const before = receiptCount();
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged export' });
    expect(receiptCount()).toBe(before + 1);
    const receipt = tc.session.db().prepare('SELECT action, body FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as { action: string; body: string };
    expect(receipt.action).toBe('evidence:transition');
    const fence = tc.session.db().prepare('SELECT fence_id, actor, reason, binding_watermark FROM revocation_fence').get() as { fence_id: number; actor: string; reason: string; binding_watermark: number };
    const job = tc.session.db().prepare(`SELECT job_id, status, phase FROM outbox_job`).get() as { job_id: number; status: string; phase: string };
    expect(JSON.parse(receipt.body).effects).toEqual({ fence: { fenceId: fence.fence_id, jobId: job.job_id, bindingWatermark: fence.binding_watermark } });
    expect(fence).toMatchObject({ actor: ACTORS.revoker, reason: 'forged export' });
    expect(job).toMatchObject({ status: 'OPEN', phase: 'claims' });
    expect(count('fence_progress')).toBe(1);
    expect((await tc.call('audit:verify', {})).ok).toBe(true);
  });

  it('costs the same number of row writes with 10 or 2,000 dependents', async () => {
    const writes = async (evidenceId: string, dependents: number) => {
      const rev = await validatedRevision(tc, evidenceId);
      bulkDependents(tc.session.db(), rev, dependents, { prefix: `cl-${evidenceId}` });
      tc.as(ACTORS.revoker);
      const db = tc.session.db();
      const total = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
      const t0 = total();
      await tc.call('evidence:transition', { revisionId: rev, to: 'REVOKED', reason: 'forged' });
      return total() - t0;
    };
    const small = await writes('ev-small', 10);
    const large = await writes('ev-large', 2_000);
    expect(small).toBe(large);
    // revision UPDATE, transition, receipt, fence, job, progress, the revision counts (old and new
    // state, migration 0460), the revision's label rewritten with its state (migration 0470: about
    // nine rows of the full-text index's own tables): nothing per dependent.
    expect(large).toBeGreaterThanOrEqual(8);
    expect(large).toBeLessThan(24);
  });

  it('fences no refused transition and no move that keeps or brings evidence into normal flows', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    const before = tableDigest(tc.casePath);
    tc.as(ACTORS.analyst);
    const refused = await tc.raw('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'analysts may not revoke' });
    expect(refused.ok).toBe(false);
    expect(tableDigest(tc.casePath)).toBe(before);
    // CANDIDATE → VALIDATED (in validatedRevision) and QUARANTINED → CANDIDATE write no fence.
    expect(count('revocation_fence')).toBe(0);
  });

  for (const to of ['QUARANTINED', 'DISPUTED'] as const) {
    it(`a move to ${to} fences dependents in its own transaction and receipt, as revocation does`, async () => {
      const a = await validatedRevision(tc, 'ev-a');
      await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
      await approvedDecision(tc, 'cl-1');
      tc.as(ACTORS.revoker);
      const receiptsBefore = receiptCount();
      await tc.call('evidence:transition', { revisionId: a, to, reason: 'taken out of normal flows' });
      expect(receiptCount()).toBe(receiptsBefore + 1);
      const fence = tc.session.db().prepare('SELECT cause, from_state FROM revocation_fence').all();
      expect(fence).toEqual([{ cause: to, from_state: 'VALIDATED' }]);
      expect(count('outbox_job')).toBe(1);
      const [receipt] = (await tc.call('audit:list', { limit: 1 })).items;
      expect(receipt!.body.effects).toMatchObject({ fence: { fenceId: expect.any(Number), jobId: expect.any(Number) } });
      // Protect first: pending before any worker ran, from a second connection too.
      const other = secondConnection();
      try {
        expect(getClaim(other.ctx, 'cl-1')).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });
      } finally {
        other.close();
      }
      // Converge after: the worker recomputes the projection and opens the remediation.
      await tc.call('revocation:runWorker', { maxJobs: 10 });
      expect(await tc.call('claim:get', { claimId: 'cl-1' })).toMatchObject({ projection: 'BLOCKED', pendingRevalidation: false });
      expect((await tc.call('remediation:list', { status: 'OPEN' })).items.map((r) => r.claimId)).toEqual(['cl-1']);
    });
  }

  it('evidence derived from a disputed revision is stale until the dispute is settled in its favour', async () => {
    const { a } = await claimOnDerived();
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'DISPUTED', reason: 'EDR and inventory disagree' });
    await tc.call('revocation:runWorker', { maxJobs: 10 });
    expect(await tc.call('claim:get', { claimId: 'cl-derived' })).toMatchObject({ projection: 'PENDING_REVALIDATION' });
    await tc.call('evidence:transition', { revisionId: a, to: 'VALIDATED', reason: 'inventory was stale; EDR confirmed' });
    expect(await tc.call('claim:get', { claimId: 'cl-derived' })).toMatchObject({ projection: 'ELIGIBLE', pendingRevalidation: false, status: 'SUPPORTED' });
  });

  it('a binding made after the fence is judged by the live projection, not left pending forever', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    await claimOn(tc, 'cl-late', [{ revisionId: a, role: 'REQUIRED' }]);
    expect(await tc.call('claim:get', { claimId: 'cl-late' })).toMatchObject({ projection: 'BLOCKED', pendingRevalidation: false });
  });

  it('a claim resting on evidence derived (PROV) from the revoked revision is pending at once, before any worker ran', async () => {
    const { a } = await claimOnDerived();
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const reader = secondConnection();
    try {
      expect(getClaim(reader.ctx, 'cl-derived')).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });
      // Claim status no longer counts the derived revision as usable support either.
      expect(getClaim(reader.ctx, 'cl-derived').support.all).toBe(0);
    } finally {
      reader.close();
    }
  });
});
