import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableDigest } from '../store/digest';
import type { TestCase } from '../../testing/testCase';
import { claimNextJob, openJobCount, processJob, runWorker } from './outbox';
import { ACTORS, approvedDecision, bulkDependents, claimOn, recordDerivations, rowsOf, validatedRevision, workerCase } from '../../testing/workerScenario';

let tc: TestCase;
beforeEach(async () => {
  tc = await workerCase();
});
afterEach(() => tc.cleanup());

const { db, all, one } = rowsOf(() => tc);
const derivations = (pairs: [from: string, to: string][]) => recordDerivations(tc, pairs);
const drain = (fanOut = 500) => runWorker(tc.session.context(), { owner: 'test', maxJobs: 10_000, fanOut });

describe('outbox worker', () => {
  it('pages 1,203 dependents with a bounded fan-out, one receipt per page, and converges every projection once', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    bulkDependents(db(), a, 1_203, { decideEvery: 100 });
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const receiptsBefore = one<{ n: number }>('SELECT COUNT(*) AS n FROM audit_receipt').n;
    // The first page counts every dependent and notes when convergence began; later pages keep both.
    const first = runWorker(tc.session.context(), { owner: 'test', maxJobs: 1, fanOut: 500 });
    expect(first.jobs.map((j) => j.converged)).toEqual([500]);
    const progress = () => one<{ dependents_total: number | null; first_taken_at_ms: number | null }>('SELECT dependents_total, first_taken_at_ms FROM fence_progress');
    const begun = progress();
    expect(begun.dependents_total).toBe(1_203);
    expect(begun.first_taken_at_ms).not.toBeNull();
    const run = drain(500);
    expect(progress()).toEqual(begun);
    run.jobs.unshift(...first.jobs);
    expect(run.jobs.map((j) => j.converged)).toEqual([500, 500, 203]);
    expect(run.jobs.map((j) => j.phase)).toEqual(['claims', 'claims', 'claims']);
    expect(run.openJobs).toBe(0);
    expect(one<{ n: number }>('SELECT COUNT(*) AS n FROM audit_receipt').n).toBe(receiptsBefore + 3);
    expect(one<{ n: number }>('SELECT COUNT(*) AS n FROM projection_ledger').n).toBe(1_203);
    expect(all<{ projection: string; version: number; n: number }>('SELECT projection, version, COUNT(*) AS n FROM support_projection GROUP BY 1, 2')).toEqual([
      { projection: 'BLOCKED', version: 1, n: 1_203 },
    ]);
    // Claims 0, 100, …, 1200 have approved decisions: one remediation each, nothing for the rest.
    expect(one<{ n: number }>(`SELECT COUNT(*) AS n FROM remediation WHERE status = 'OPEN'`).n).toBe(13);
    const status = await tc.call('revocation:status', {});
    expect(status).toMatchObject({ openJobs: 0, pendingClaims: 0, openRemediations: 13 });
    expect(status.revocations[0]).toMatchObject({ revisionId: a, dependentsTotal: 1_203, dependentsConverged: 1_203, jobsDone: 3, openJobs: 0 });
    expect(status.revocations[0]!.convergenceMs).not.toBeNull();
    // Replaying finds nothing left to do.
    expect(drain().jobs).toEqual([]);
  });

  it('an expired lease is taken over; the worker that lost it writes nothing', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const slow = { owner: 'slow', leaseMs: 100, clock: () => 1_000 };
    const job = claimNextJob(db(), slow)!;
    expect(job).toMatchObject({ lease_owner: 'slow', lease_expires_at: 1_100, attempts: 1 });
    expect(claimNextJob(db(), { owner: 'fast', leaseMs: 100, clock: () => 1_099 })).toBeNull();
    const taken = claimNextJob(db(), { owner: 'fast', leaseMs: 100, clock: () => 1_100 })!;
    expect(taken).toMatchObject({ job_id: job.job_id, lease_owner: 'fast', attempts: 2 });
    const before = tableDigest(tc.casePath);
    expect(processJob(tc.session.context(), job, slow)).toMatchObject({ lost: true, converged: 0 });
    expect(tableDigest(tc.casePath)).toBe(before);
    expect(processJob(tc.session.context(), taken, { owner: 'fast' })).toMatchObject({ lost: false, converged: 1 });
    expect(one('SELECT projection, version FROM support_projection WHERE claim_id = ?', 'cl-1')).toEqual({ projection: 'BLOCKED', version: 1 });
  });

  it('marks evidence derived from the revoked revision, transitively, and the claims resting on it', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const d1 = await validatedRevision(tc, 'ev-d1');
    const d2 = await validatedRevision(tc, 'ev-d2');
    tc.as(ACTORS.analyst);
    await tc.call('prov:record', {
      tenant: 'acme',
      classification: 'internal',
      nodes: [{ kind: 'entity', id: 'summary-draft', label: 'intermediate summary' }],
      edges: [
        { type: 'wasDerivedFrom', from: `rev:${d1}`, to: `rev:${a}` },
        // d2 derives from d1 through an entity that is not a stored revision.
        { type: 'wasDerivedFrom', from: 'summary-draft', to: `rev:${d1}` },
        { type: 'wasDerivedFrom', from: `rev:${d2}`, to: 'summary-draft' },
      ],
    });
    await claimOn(tc, 'cl-d2', [{ revisionId: d2, role: 'REQUIRED' }]);
    await approvedDecision(tc, 'cl-d2');
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    expect((await tc.call('claim:get', { claimId: 'cl-d2' })).pendingRevalidation).toBe(true);
    drain();
    const fences = all<{ revision_id: string; cause: string; parent: string | null; reason: string }>(
      `SELECT f.revision_id, f.cause, p.revision_id AS parent, f.reason FROM revocation_fence f LEFT JOIN revocation_fence p ON p.fence_id = f.parent_fence_id ORDER BY f.fence_id`,
    );
    // Each derived fence says why: from the revoked revision, or from evidence itself derived.
    expect(fences).toEqual([
      { revision_id: a, cause: 'REVOKED', parent: null, reason: 'forged' },
      { revision_id: d1, cause: 'DERIVED', parent: a, reason: `derived from ${a}, which was REVOKED` },
      { revision_id: d2, cause: 'DERIVED', parent: d1, reason: `derived from ${d1}, which was itself derived from fenced evidence` },
    ]);
    const claim = await tc.call('claim:get', { claimId: 'cl-d2' });
    expect(claim).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: false });
    expect(claim.projectionReasons![0]).toContain('derived from revoked or superseded evidence');
    const status = await tc.call('revocation:status', {});
    expect(status.revocations[0]).toMatchObject({ derivedFences: 2, dependentsTotal: 1, dependentsConverged: 1, openJobs: 0 });
    const [rem] = (await tc.call('remediation:list', {})).items;
    // Taken away by the fence on a, the evidence d2 rests on, not by d2's own derived fence.
    const { fence_id: fenceOfA } = one<{ fence_id: number }>('SELECT fence_id FROM revocation_fence WHERE revision_id = ?', a);
    expect(rem).toMatchObject({ claimId: 'cl-d2', openedProjection: 'PENDING_REVALIDATION', affected: [{ revisionId: d2, why: 'DERIVED', fenceId: fenceOfA }] });
    expect(rem!.causes.map((c) => c.revisionId)).toEqual([a, d2]);
    // Verification recomputes each page's ledger digest from the tables.
    expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
  });

  it('a page that takes exactly the last dependents ends the job: no empty page after it', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    bulkDependents(db(), a, 1_000);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const run = drain(500);
    expect(run.jobs.map((j) => j.converged)).toEqual([500, 500]);
    expect(run.openJobs).toBe(0);
  });

  it('the ledger records each change from the projection stored before it (none the first time)', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const b = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-two', [
      { revisionId: a, role: 'REQUIRED' },
      { revisionId: b, role: 'REQUIRED' },
    ]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    drain();
    await tc.call('evidence:transition', { revisionId: b, to: 'REVOKED', reason: 'forged too' });
    drain();
    const ledger = all<{ from_projection: string | null; to_projection: string; from_version: number; to_version: number }>(
      `SELECT from_projection, to_projection, from_version, to_version FROM projection_ledger WHERE claim_id = 'cl-two' ORDER BY fence_id`,
    );
    expect(ledger).toHaveLength(2);
    expect(ledger[0]).toMatchObject({ from_projection: null, from_version: 0, to_version: 1 });
    expect(ledger[1]).toMatchObject({ from_projection: ledger[0]!.to_projection, from_version: 1, to_version: 2 });
    expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
  });

  it('a claim re-bound between pages leaves the count the first page took, and the total settles to what was reached', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const ids = bulkDependents(db(), a, 1_203);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const page = () => runWorker(tc.session.context(), { owner: 'test', maxJobs: 1, fanOut: 500 });
    const progress = () => one<{ dependents_total: number; dependents_converged: number }>('SELECT dependents_total, dependents_converged FROM fence_progress');
    page();
    // The last claim leaves a's dependents before the page that would have reached it.
    tc.as(ACTORS.analyst);
    await tc.call('claim:unbind', { claimId: ids[ids.length - 1]!, revisionId: a, reason: 'bound by mistake' });
    page();
    expect(progress()).toEqual({ dependents_total: 1_203, dependents_converged: 1_000 });
    page();
    expect(progress()).toEqual({ dependents_total: 1_202, dependents_converged: 1_202 });
    expect(openJobCount(db())).toBe(0);
  });

  it('a derived page that takes exactly the last derived revisions ends the job', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const derived = [await validatedRevision(tc, 'ev-d0'), await validatedRevision(tc, 'ev-d1')];
    await derivations(derived.map((d) => [d, a]));
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const run = drain(2);
    expect(run.jobs.filter((j) => j.phase === 'derived' && j.fenceId === run.jobs[0]!.fenceId).map((j) => j.derivedFences)).toEqual([2]);
  });

  it('pages the derived evidence too: five revisions derived from the revoked one, two per page', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const derived: string[] = [];
    for (let i = 0; i < 5; i++) derived.push(await validatedRevision(tc, `ev-d${i}`));
    await derivations(derived.map((d) => [d, a]));
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const run = drain(2);
    const derivedPages = run.jobs.filter((j) => j.phase === 'derived').map((j) => j.derivedFences);
    expect(derivedPages).toEqual([2, 2, 1]);
    const fenced = all<{ revision_id: string }>(`SELECT revision_id FROM revocation_fence WHERE cause = 'DERIVED' ORDER BY revision_id`).map((f) => f.revision_id);
    expect(fenced).toEqual([...derived].sort());
    expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
  });

  it('hot queries stay on their indexes (an index regression fails here)', () => {
    const plan = (sql: string, ...params: unknown[]) =>
      all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)
        .map((r) => r.detail)
        .join(' | ');
    // The page of dependents: one range scan of the binding index by revision, resuming at the cursor.
    expect(
      plan(
        `SELECT b.claim_id FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
         WHERE b.revision_id = ? AND b.binding_id <= ? AND b.claim_id > ? ORDER BY b.claim_id LIMIT ?`,
        'ev-a@1', 1, '', 500,
      ),
    ).toContain('USING INDEX claim_binding_by_revision (revision_id=? AND claim_id>?)');
    expect(plan(`SELECT job_id FROM outbox_job WHERE status = 'OPEN' AND (lease_expires_at IS NULL OR lease_expires_at <= ?) ORDER BY job_id LIMIT 1`, 0)).toContain(
      'USING INDEX outbox_job_open (status=?)',
    );
    // Every claim read checks fences by revision: an index seek, not a scan.
    expect(plan('SELECT f.* FROM revocation_fence f WHERE f.revision_id IN (SELECT value FROM json_each(?))', '[]')).toContain(
      'USING INDEX revocation_fence_by_revision (revision_id=?)',
    );
  });
});

describe('what a page writes', () => {
  it('fences a revision reached by two paths, or around a cycle, once per revoke', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const [l, r, x] = [await validatedRevision(tc, 'ev-l'), await validatedRevision(tc, 'ev-r'), await validatedRevision(tc, 'ev-x')];
    await derivations([
      [l, a],
      [r, a],
      [x, l],
      [x, r],
      // A cycle back to the first derived revision.
      [l, x],
    ]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const run = drain();
    expect(run.openJobs).toBe(0);
    const fenced = all<{ revision_id: string; n: number }>(`SELECT revision_id, COUNT(*) AS n FROM revocation_fence GROUP BY revision_id ORDER BY revision_id`);
    expect(fenced).toEqual([a, l, r, x].sort().map((revision_id) => ({ revision_id, n: 1 })));
    expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
  });

  it("names each claim whose projection a page wrote among its receipt's targets", async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    await claimOn(tc, 'cl-2', [{ revisionId: a, role: 'REQUIRED' }]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const [job] = drain().jobs;
    const receipt = one<{ targets: string }>(`SELECT targets FROM audit_receipt WHERE action = 'revocation:converge'`);
    const fenceId = one<{ fence_id: number }>('SELECT fence_id FROM revocation_fence').fence_id;
    expect(JSON.parse(receipt.targets)).toEqual([`job:${job!.jobId}`, `fence:${fenceId}`, `revision:${a}`, 'claim:cl-1', 'claim:cl-2']);
  });

  it('takes no lease for a session that could not sign the receipt', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    const keyless = { ...tc.session.context(), keyring: undefined };
    expect(() => runWorker(keyless, { owner: 'keyless', maxJobs: 1 })).toThrow(
      'revocation:converge refused: this session has no reviewer keys, so the change cannot be signed; open the case through a workbench session',
    );
    expect(one('SELECT lease_owner, attempts FROM outbox_job')).toEqual({ lease_owner: null, attempts: 0 });
  });
});

describe('compare-and-swap on the stored projection (issue 13)', () => {
  it('a page whose read of a projection went stale loses: nothing of it is written and the job stays open', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const b = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }, { revisionId: b, role: 'REQUIRED' }]);
    await claimOn(tc, 'cl-2', [{ revisionId: a, role: 'REQUIRED' }, { revisionId: b, role: 'REQUIRED' }]);
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: b, to: 'DISPUTED', reason: 'conflicting telemetry' });
    drain();
    expect(all('SELECT claim_id, version FROM support_projection ORDER BY claim_id')).toEqual([
      { claim_id: 'cl-1', version: 1 },
      { claim_id: 'cl-2', version: 1 },
    ]);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged export' });
    // Another writer moves cl-2's projection on after this page read it and before the page writes
    // it: simulated by a trigger that fires when the page has written cl-1.
    db().exec(`CREATE TEMP TRIGGER concurrent_writer AFTER INSERT ON projection_ledger WHEN NEW.claim_id = 'cl-1'
      BEGIN UPDATE support_projection SET version = version + 1 WHERE claim_id = 'cl-2'; END`);
    const facts = () => JSON.stringify([all('SELECT * FROM support_projection'), all('SELECT * FROM projection_ledger'), all('SELECT seq FROM audit_receipt')]);
    const before = facts();
    expect(() => drain()).toThrow(/projection of cl-2 moved past version 1/);
    db().exec('DROP TRIGGER concurrent_writer');
    // Only the lease it took is left (lease bookkeeping, not a fact); the page wrote nothing.
    expect(facts()).toBe(before);
    expect(one<{ n: number }>(`SELECT COUNT(*) AS n FROM outbox_job WHERE status = 'OPEN'`).n).toBe(1);
    // Once its lease expires, the job is taken again and, without the interference, converges.
    runWorker(tc.session.context(), { owner: 'test', maxJobs: 10, clock: () => Date.now() + 60_000 });
    expect(all('SELECT claim_id, version FROM support_projection ORDER BY claim_id')).toEqual([
      { claim_id: 'cl-1', version: 2 },
      { claim_id: 'cl-2', version: 2 },
    ]);
  });
});
