import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import type { TestCase } from '../../testing/testCase';
import { ACTORS, approvedDecision, claimOn, recordDerivations, rowsOf, validatedRevision, validatedSuccessor, workerCase } from '../../testing/workerScenario';
import { claimNextJob, processJob, runWorker } from './outbox';

/**
 * When the worker opens a remediation: a decided claim that leaves ELIGIBLE. For a claim it never
 * computed, "before" is the claim as it was before the fences that came after its bindings
 * (projection.ts beforeFences).
 */
let tc: TestCase;
beforeEach(async () => {
  tc = await workerCase();
});
afterEach(() => tc.cleanup());

const { db, all, one } = rowsOf(() => tc);
const derivations = (pairs: [from: string, to: string][]) => recordDerivations(tc, pairs);
const drain = () => runWorker(tc.session.context(), { owner: 'test', maxJobs: 10_000, fanOut: 500 });
/** Revokes the revision as the revoker and drains the outbox. */
async function revoke(revisionId: string, reason: string): Promise<void> {
  tc.as(ACTORS.revoker);
  await tc.call('evidence:transition', { revisionId, to: 'REVOKED', reason });
  drain();
}
/** Quarantined while still a candidate, drained, released and validated: its first fence remembers CANDIDATE. */
async function releasedAfterQuarantine(evidenceId: string): Promise<string> {
  tc.as(ACTORS.analyst);
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(evidenceId));
  tc.as(ACTORS.revoker);
  await tc.call('evidence:transition', { revisionId, to: 'QUARANTINED', reason: 'looked tampered' });
  drain();
  await tc.call('evidence:transition', { revisionId, to: 'CANDIDATE', reason: 'hash re-checked against the source' });
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'validation checklist passed' });
  return revisionId;
}
/** a, and d derived from it (PROV), both validated. */
async function derivedPair(): Promise<{ a: string; d: string }> {
  const a = await validatedRevision(tc, 'ev-a');
  const d = await validatedRevision(tc, 'ev-d');
  await derivations([[d, a]]);
  return { a, d };
}

describe('remediations the worker opens', () => {
  it('opens one remediation per approved decision that left ELIGIBLE, and no second one when the revision is revoked after its supersede', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-decided', [{ revisionId: a, role: 'REQUIRED' }]);
    await claimOn(tc, 'cl-undecided', [{ revisionId: a, role: 'REQUIRED' }]);
    await claimOn(tc, 'cl-context', [{ revisionId: a, role: 'CONTEXT' }]);
    await approvedDecision(tc, 'cl-decided');
    await approvedDecision(tc, 'cl-context');
    await validatedSuccessor(tc, a);
    drain();
    const open = () => all<{ claim_id: string }>(`SELECT claim_id FROM remediation ORDER BY claim_id`).map((r) => r.claim_id);
    // cl-context lost no REQUIRED or SUPPORTING binding, but its only full support is gone: its
    // status is INSUFFICIENT, so its projection is no longer ELIGIBLE either (issue 8.9) and the
    // decision resting on it is opened for remediation. cl-undecided has no decision to repair.
    expect(open()).toEqual(['cl-context', 'cl-decided']);
    await revoke(a, 'the old revision was forged too');
    expect(open()).toEqual(['cl-context', 'cl-decided']);
    expect(one('SELECT projection, version FROM support_projection WHERE claim_id = ?', 'cl-decided')).toEqual({ projection: 'BLOCKED', version: 2 });
    expect(one('SELECT projection FROM support_projection WHERE claim_id = ?', 'cl-context')).toEqual({ projection: 'PARTIALLY_SUPPORTED' });
  });

  it('opens no remediation for a decision on an earlier generation, nor for a claim that was not ELIGIBLE before the revoke', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const b = await validatedRevision(tc, 'ev-b');
    // Decided on generation 1; b's unbinding moved the claim on to generation 2, undecided.
    await claimOn(tc, 'cl-moved-on', [
      { revisionId: a, role: 'REQUIRED' },
      { revisionId: b, role: 'SUPPORTING' },
    ]);
    await approvedDecision(tc, 'cl-moved-on');
    tc.as(ACTORS.analyst);
    await tc.call('claim:unbind', { claimId: 'cl-moved-on', revisionId: b, reason: 'not about this host' });
    // Short of its two independent sources, so never ELIGIBLE; decided all the same: more evidence needed.
    tc.as(ACTORS.analyst);
    await tc.call('claim:create', {
      claimId: 'cl-short',
      statement: 'statement of cl-short',
      scope: ['HOST-FS01'],
      tenant: 'acme',
      classification: 'internal',
      policy: { minIndependentSources: 2, requiredKinds: [], quorumSize: null },
    });
    await tc.call('claim:bind', { claimId: 'cl-short', revisionId: a, relation: 'FULL_SUPPORT', role: 'REQUIRED', rationale: `why ${a}` });
    expect((await tc.call('claim:get', { claimId: 'cl-short' })).projection).not.toBe('ELIGIBLE');
    await approvedDecision(tc, 'cl-short', 'NEEDS_MORE_EVIDENCE');
    await revoke(a, 'forged');
    expect(all(`SELECT claim_id, projection FROM support_projection ORDER BY claim_id`)).toEqual([
      { claim_id: 'cl-moved-on', projection: 'BLOCKED' },
      { claim_id: 'cl-short', projection: 'BLOCKED' },
    ]);
    expect(all('SELECT claim_id FROM remediation')).toEqual([]);
  });

  it("judges a claim it never computed from the state the revoke found, not from a fence older than the claim's binding", async () => {
    const r = await releasedAfterQuarantine('ev-r');
    // Bound and decided after that fence, then revoked: before the revoke the claim was ELIGIBLE.
    await claimOn(tc, 'cl-late', [{ revisionId: r, role: 'REQUIRED' }]);
    await approvedDecision(tc, 'cl-late');
    await revoke(r, 'forged');
    expect(all('SELECT cause, from_state FROM revocation_fence ORDER BY fence_id')).toEqual([
      { cause: 'QUARANTINED', from_state: 'CANDIDATE' },
      { cause: 'REVOKED', from_state: 'VALIDATED' },
    ]);
    const [rem] = (await tc.call('remediation:list', {})).items;
    expect(rem).toMatchObject({ claimId: 'cl-late', openedProjection: 'BLOCKED' });
  });

  it('names as affected only the bindings a fence since the binding took away, not one bound after its revision was released from quarantine', async () => {
    const r = await releasedAfterQuarantine('ev-r');
    const b = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-two', [
      { revisionId: r, role: 'REQUIRED' },
      { revisionId: b, role: 'REQUIRED' },
    ]);
    await approvedDecision(tc, 'cl-two');
    await revoke(b, 'forged');
    const [rem] = (await tc.call('remediation:list', {})).items;
    expect(rem!.affected.map((x) => [x.revisionId, x.why])).toEqual([[b, 'REVOKED']]);
    expect(rem!.bindings.filter((x) => x.affected).map((x) => x.revisionId)).toEqual([b]);
  });

  it('passes over a derived fence, which found no state, to the fence that found one', async () => {
    const { a, d } = await derivedPair();
    await claimOn(tc, 'cl-d', [{ revisionId: d, role: 'REQUIRED' }]);
    await approvedDecision(tc, 'cl-d');
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged' });
    // Only a's own pages run (no claim rests on a itself) before d is revoked in its own right:
    // d has its derived fence, and cl-d is not computed yet.
    for (const phase of ['claims', 'derived']) {
      const job = claimNextJob(db(), { owner: 'test' })!;
      expect(processJob(tc.session.context(), job, { owner: 'test' })).toMatchObject({ phase, converged: 0 });
    }
    expect(all('SELECT claim_id FROM support_projection')).toEqual([]);
    await tc.call('evidence:transition', { revisionId: d, to: 'REVOKED', reason: 'forged as well' });
    drain();
    expect(all('SELECT revision_id, cause, from_state FROM revocation_fence ORDER BY fence_id')).toEqual([
      { revision_id: a, cause: 'REVOKED', from_state: 'VALIDATED' },
      { revision_id: d, cause: 'DERIVED', from_state: null },
      { revision_id: d, cause: 'REVOKED', from_state: 'VALIDATED' },
    ]);
    const [rem] = (await tc.call('remediation:list', {})).items;
    expect(rem).toMatchObject({ claimId: 'cl-d', openedProjection: 'PENDING_REVALIDATION' });
  });

  it('holds against a claim the staleness it was bound with knowingly: no remediation when it was never ELIGIBLE', async () => {
    const { a, d } = await derivedPair();
    await revoke(a, 'forged');
    // Bound to d after a's fence: stale from the start, decided all the same (more evidence needed).
    await claimOn(tc, 'cl-knowing', [{ revisionId: d, role: 'REQUIRED' }]);
    expect((await tc.call('claim:get', { claimId: 'cl-knowing' })).projection).toBe('PENDING_REVALIDATION');
    await approvedDecision(tc, 'cl-knowing', 'NEEDS_MORE_EVIDENCE');
    await revoke(d, 'forged as well');
    expect(one('SELECT projection FROM support_projection WHERE claim_id = ?', 'cl-knowing')).toEqual({ projection: 'PENDING_REVALIDATION' });
    expect(all('SELECT claim_id FROM remediation')).toEqual([]);
  });
});
