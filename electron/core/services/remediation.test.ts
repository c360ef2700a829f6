import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stateFingerprint } from '../audit/receipts';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, approvedDecision, claimOn, retainRequest as retain, validatedRevision, validatedSuccessor, workerCase } from '../../testing/workerScenario';

let tc: TestCase;
beforeEach(async () => {
  tc = await workerCase();
});
afterEach(() => tc.cleanup());

const receipts = () => (tc.session.db().prepare('SELECT COUNT(*) AS n FROM audit_receipt').get() as { n: number }).n;
const runWorker = () => tc.call('revocation:runWorker', { maxJobs: 100 });

/**
 * cl-1 rests on ev-a@1 (REQUIRED) and ev-b@1 (SUPPORTING) with an approved SUPPORTED decision;
 * rev1 supersedes ev-a@1 with ev-a@2 (validated unless told otherwise) and the worker converges.
 */
async function remediationOnSupersede(options: { validateSuccessor?: boolean } = {}) {
  const a1 = await validatedRevision(tc, 'ev-a');
  const b1 = await validatedRevision(tc, 'ev-b');
  await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }, { revisionId: b1, role: 'SUPPORTING' }]);
  const decisionId = await approvedDecision(tc, 'cl-1');
  let a2: string;
  if (options.validateSuccessor === false) {
    tc.as(ACTORS.revoker);
    a2 = (await tc.call('evidence:revise', { supersedes: a1, content: 'corrected, not yet validated', reason: 'corrected upstream' })).revisionId;
  } else {
    a2 = await validatedSuccessor(tc, a1);
  }
  await runWorker();
  tc.as(ACTORS.approver);
  const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
  return { a1, a2, b1, decisionId, rem: rem! };
}


describe('remediation:retainCurrentRevision', () => {
  it('accepts a same-lineage usable successor: new generation, decision carried, claim content unchanged, history kept', async () => {
    const { a1, a2, b1, decisionId, rem } = await remediationOnSupersede();
    expect(rem).toMatchObject({ claimId: 'cl-1', owner: ACTORS.approver, projection: 'BLOCKED', canResolve: true, affected: [{ revisionId: a1, why: 'SUPERSEDED' }] });
    expect(rem.affected[0]!.successors).toEqual([{ revisionId: a2, revision: 2, state: 'VALIDATED', usable: true, reasons: [] }]);
    const before = await tc.call('claim:get', { claimId: 'cl-1' });
    const n = receipts();
    const done = await tc.call('remediation:retainCurrentRevision', retain(rem, [a2]));
    expect(receipts()).toBe(n + 1);
    expect(done).toMatchObject({ status: 'RESOLVED', resolution: 'RETAINED', resolvedBy: ACTORS.approver, newGeneration: 2, projection: 'ELIGIBLE' });
    const after = await tc.call('claim:get', { claimId: 'cl-1' });
    expect(after).toMatchObject({ statement: before.statement, scope: before.scope, policy: before.policy, generation: 2, projection: 'ELIGIBLE', projectionVersion: 2 });
    expect(after.bindings.map((b) => [b.revisionId, b.role, b.relation])).toEqual([[a2, 'REQUIRED', 'FULL_SUPPORT'], [b1, 'SUPPORTING', 'FULL_SUPPORT']]);
    expect(after.historicalBindings!.map((b) => [b.revisionId, b.generation, b.historical])).toEqual([[a1, 1, true], [b1, 1, true]]);
    // The decision inherited by the successor is in force and current; the old one stays readable.
    expect(done.carriedDecisionId).toMatch(/^dec-[0-9a-f]{8}$/);
    // One receipt names everything the resolution touched, and what it did to each binding.
    const [receipt] = (await tc.call('audit:list', { limit: 1 })).items;
    expect(receipt).toMatchObject({
      action: 'remediation:retainCurrentRevision',
      targets: ['claim:cl-1', `remediation:${rem.remediationId}`, `decision:${decisionId}`, `decision:${done.carriedDecisionId}`, `revision:${a2}`, `revision:${a1}`],
      body: { resolution: 'RETAINED', successors: [{ replaces: a1, successor: a2 }], carriedBindings: [b1], droppedBindings: [] },
      preStateFp: stateFingerprint({ claimId: 'cl-1', generation: 1 }),
      postStateFp: stateFingerprint({ claimId: 'cl-1', generation: 2 }),
    });
    // The successor's binding keeps the rationale and says where it came from.
    expect(tc.session.db().prepare('SELECT rationale FROM claim_binding WHERE revision_id = ?').pluck().get(a2)).toBe(
      `why ${a1} [retained on ${a2}, successor of ${a1}, by remediation ${rem.remediationId}]`,
    );
    const carried = await tc.call('decision:get', { decisionId: done.carriedDecisionId! });
    expect(carried).toMatchObject({ status: 'APPROVED', generation: 2, current: true, effective: true, verdict: 'SUPPORTED', evidenceRefs: [a2, b1].sort() });
    expect(carried.decisionNote).toBe(`retained on ${a2} by remediation ${rem.remediationId}: the corrected record says the same about HOST-FS01`);
    expect(await tc.call('decision:get', { decisionId })).toMatchObject({ status: 'APPROVED', generation: 1, current: false, effective: false });
    expect((await tc.call('evidence:get', { revisionId: a1 })).state).toBe('SUPERSEDED');
    expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
    const gate = await tc.call('case:gate', {});
    expect(gate.blockers.filter((b) => b.kind === 'remediation' || b.kind === 'revalidation')).toEqual([]);
  });

  it('refuses a successor from a different lineage, writing nothing', async () => {
    const x = await validatedRevision(tc, 'ev-x');
    const { rem } = await remediationOnSupersede();
    const before = tableDigest(tc.casePath);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem, [x]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toBe(
      `remediation:retainCurrentRevision: ${x} belongs to lineage ev-x, and no affected binding does (affected: ${rem.affected[0]!.revisionId}); a revision from a different lineage cannot inherit the review: request a re-review instead`,
    );
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('refuses a foreign successor even when its revision number is higher than the one it would replace', async () => {
    // Issue 13: with the lineage check disabled, the foreign successor above was still refused by
    // another check (its revision number), so one with a higher number would have been accepted.
    const x1 = await validatedRevision(tc, 'ev-x');
    const x2 = await validatedSuccessor(tc, x1);
    const x3 = await validatedSuccessor(tc, x2);
    const { rem } = await remediationOnSupersede();
    const before = tableDigest(tc.casePath);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem, [x3]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain(`${x3} belongs to lineage ev-x`);
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('refuses a successor that is not later than the revision it would replace, and two successors for one binding', async () => {
    const { a1, a2, rem } = await remediationOnSupersede();
    const a3 = await validatedSuccessor(tc, a2);
    tc.as(ACTORS.approver);
    const before = tableDigest(tc.casePath);
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem, [a1]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: ${a1} is not a later revision than ${a1}; name a successor revision`,
    });
    // a3 corrects a2: both are later than a1, and only one of them may take its place.
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem, [a3, a2]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: both ${a3} and ${a2} would replace ${a1}; name exactly one successor per affected binding`,
    });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('needs a successor for every affected REQUIRED binding, and none for a SUPPORTING one', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    const b1 = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }, { revisionId: b1, role: 'SUPPORTING' }]);
    await approvedDecision(tc, 'cl-1');
    const a2 = await validatedSuccessor(tc, a1);
    const b2 = await validatedSuccessor(tc, b1);
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    expect(rem!.affected.map((a) => a.revisionId).sort()).toEqual([a1, b1].sort());
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [b2]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: REQUIRED binding of ${a1} has no successor; name a successor revision of the same lineage for each, or request a re-review`,
    });
    const done = await tc.call('remediation:retainCurrentRevision', retain(rem!, [a2]));
    expect(done).toMatchObject({ status: 'RESOLVED', resolution: 'RETAINED' });
  });

  it('names every REQUIRED binding left without a successor', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    const c1 = await validatedRevision(tc, 'ev-c');
    const b1 = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }, { revisionId: c1, role: 'REQUIRED' }, { revisionId: b1, role: 'SUPPORTING' }]);
    await approvedDecision(tc, 'cl-1');
    const a2 = await validatedSuccessor(tc, a1);
    const c2 = await validatedSuccessor(tc, c1);
    const b2 = await validatedSuccessor(tc, b1);
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [b2]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: REQUIRED bindings of ${a1}, ${c1} have no successor; name a successor revision of the same lineage for each, or request a re-review`,
    });
    // Named both, the decision carried over says which successors it was retained on.
    const done = await tc.call('remediation:retainCurrentRevision', retain(rem!, [a2, c2]));
    expect((await tc.call('decision:get', { decisionId: done.carriedDecisionId! })).decisionNote).toBe(
      `retained on ${a2}, ${c2} by remediation ${rem!.remediationId}: the corrected record says the same about HOST-FS01`,
    );
  });

  it('refuses a successor that is not usable, writing nothing', async () => {
    const { a2, rem } = await remediationOnSupersede({ validateSuccessor: false });
    expect(rem.affected[0]!.successors[0]).toMatchObject({ revisionId: a2, state: 'CANDIDATE', usable: false });
    const before = tableDigest(tc.casePath);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem, [a2]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain(`successor ${a2} is not usable (revision is CANDIDATE, not VALIDATED)`);
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('names every reason a successor is not usable', async () => {
    const { a2, rem } = await remediationOnSupersede({ validateSuccessor: false });
    tc.as(ACTORS.revoker);
    // a2 corrected again, as a record that had already expired: neither validated nor in force.
    const a3 = (await tc.call('evidence:revise', { supersedes: a2, content: 'corrected twice', reason: 'corrected upstream', context: { validUntil: '2020-01-01T00:00:00.000Z', effectiveFrom: '2019-01-01T00:00:00.000Z' } })).revisionId;
    tc.as(ACTORS.approver);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem, [a3]));
    expect(err.message).toBe(
      `remediation:retainCurrentRevision: successor ${a3} is not usable (revision is CANDIDATE, not VALIDATED; expired at 2020-01-01T00:00:00.000Z); validate it first or name another successor`,
    );
  });

  it('refuses when a REQUIRED binding is left without a successor, writing nothing', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    const c1 = await validatedRevision(tc, 'ev-c');
    await claimOn(tc, 'cl-2', [{ revisionId: a1, role: 'REQUIRED' }, { revisionId: c1, role: 'REQUIRED' }]);
    await approvedDecision(tc, 'cl-2');
    const a2 = await validatedSuccessor(tc, a1);
    await validatedSuccessor(tc, c1);
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', {})).items;
    expect(rem!.affected.map((a) => a.revisionId)).toEqual([a1, c1]);
    const before = tableDigest(tc.casePath);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a2]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain(`REQUIRED binding of ${c1} has no successor`);
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('refuses when the claim would still be BLOCKED on the successors, rolling back what it had written', async () => {
    // Quarantine and dispute fence now, so every state change opens its own remediation; what is
    // left to make a non-affected REQUIRED binding unusable is time: ev-c@1 expires after the
    // remediation on ev-a opened.
    tc.cleanup();
    let now = '2026-11-25T00:00:00.000Z';
    tc = await createTestCase({ now: () => now });
    await addActors(tc);
    const a1 = await validatedRevision(tc, 'ev-a');
    const c1 = await validatedRevision(tc, 'ev-c', { context: { validUntil: '2026-11-26T00:00:00.000Z' } });
    const d1 = await validatedRevision(tc, 'ev-d', { context: { validUntil: '2026-11-26T00:00:00.000Z' } });
    await claimOn(tc, 'cl-3', [{ revisionId: a1, role: 'REQUIRED' }, { revisionId: c1, role: 'REQUIRED' }, { revisionId: d1, role: 'REQUIRED' }]);
    await approvedDecision(tc, 'cl-3');
    const a2 = await validatedSuccessor(tc, a1);
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', {})).items;
    expect(rem!.affected.map((a) => a.revisionId)).toEqual([a1]);
    now = '2026-11-27T00:00:00.000Z';
    const before = tableDigest(tc.casePath);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a2]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toMatch(new RegExp(`would still be BLOCKED \\(REQUIRED ${c1} is not usable \\([^)]+\\); REQUIRED ${d1} is not usable \\(`));
    // The new generation, bindings and projection it wrote before finding out were rolled back.
    expect(tableDigest(tc.casePath)).toBe(before);
    // Only retaining needs the claim to stand on the successors: a re-review takes it as it is.
    expect(await tc.call('remediation:requestRereview', { remediationId: rem!.remediationId, expectedProjectionVersion: rem!.projectionVersion, reason: 'expired records' })).toMatchObject({ status: 'RESOLVED', resolution: 'REREVIEW' });
  });

  it('refuses a stale projection version, writing nothing', async () => {
    const { a2, b1, rem } = await remediationOnSupersede();
    // Another revocation touches the claim; the worker recomputes its projection (version 2).
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: b1, to: 'REVOKED', reason: 'source compromised' });
    await runWorker();
    tc.as(ACTORS.approver);
    const before = tableDigest(tc.casePath);
    const err = await tc.refusal('remediation:retainCurrentRevision', retain(rem, [a2]));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain(`is at version 2, not ${rem.projectionVersion} as you reviewed it`);
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('while fences are pending, names the earliest one not yet converged', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    const b1 = await validatedRevision(tc, 'ev-b');
    const c1 = await validatedRevision(tc, 'ev-c');
    await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }, { revisionId: b1, role: 'SUPPORTING' }, { revisionId: c1, role: 'SUPPORTING' }]);
    await approvedDecision(tc, 'cl-1');
    const a2 = await validatedSuccessor(tc, a1);
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    tc.as(ACTORS.revoker);
    // Revoked in the opposite order to their bindings: the earliest fence is not the first one met.
    await tc.call('evidence:transition', { revisionId: c1, to: 'REVOKED', reason: 'first' });
    await tc.call('evidence:transition', { revisionId: b1, to: 'REVOKED', reason: 'second' });
    const fences = tc.session.db().prepare('SELECT fence_id, revision_id FROM revocation_fence ORDER BY fence_id').all() as { fence_id: number; revision_id: string }[];
    const first = fences.find((f) => f.revision_id === c1)!;
    expect(first.fence_id).toBeLessThan(fences.find((f) => f.revision_id === b1)!.fence_id);
    tc.as(ACTORS.approver);
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a2]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: claim cl-1 is still pending revalidation (fence ${first.fence_id} on ${c1} has not converged); run the worker (revocation:runWorker) or wait, then reload`,
    });
  });

  it('holds the claim\'s bindings still while it is open: a binding added meanwhile would be retained unreviewed', async () => {
    const { rem } = await remediationOnSupersede();
    const x = await validatedRevision(tc, 'ev-x');
    tc.as(ACTORS.analyst);
    const before = tableDigest(tc.casePath);
    expect(await tc.refusal('claim:bind', { claimId: 'cl-1', revisionId: x, relation: 'REFUTES', role: 'SUPPORTING', rationale: 'new telemetry' })).toEqual({
      code: 'CONFLICT',
      message: 'claim:bind: claim cl-1 has an open remediation; resolve it (retain, re-review or withdraw) before changing its bindings',
    });
    expect(tableDigest(tc.casePath)).toBe(before);
    tc.as(ACTORS.approver);
    await tc.call('remediation:requestRereview', { remediationId: rem.remediationId, expectedProjectionVersion: rem.projectionVersion, reason: 'look again' });
    tc.as(ACTORS.analyst);
    await tc.call('claim:bind', { claimId: 'cl-1', revisionId: x, relation: 'REFUTES', role: 'SUPPORTING', rationale: 'new telemetry' });
  });

  it('four eyes: whoever revoked the evidence may not resolve the remediation alone', async () => {
    const { a2, rem } = await remediationOnSupersede();
    tc.as(ACTORS.revoker);
    expect((await tc.call('remediation:get', { remediationId: rem.remediationId })).cannotResolveBecause).toContain('four eyes');
    const before = tableDigest(tc.casePath);
    for (const [channel, request] of [
      ['remediation:retainCurrentRevision', retain(rem, [a2])],
      ['remediation:requestRereview', { remediationId: rem.remediationId, expectedProjectionVersion: rem.projectionVersion, reason: 'mine' }],
      ['remediation:withdraw', { remediationId: rem.remediationId, expectedProjectionVersion: rem.projectionVersion, reason: 'mine' }],
    ] as const) {
      const err = await tc.refusal(channel, request);
      expect(err.code).toBe('FORBIDDEN');
      expect(err.message).toContain(`${ACTORS.revoker} took the evidence behind it out of normal flows`);
    }
    tc.as(ACTORS.analyst);
    expect((await tc.refusal('remediation:withdraw', { remediationId: rem.remediationId, expectedProjectionVersion: rem.projectionVersion, reason: 'x' })).code).toBe('FORBIDDEN');
    expect(tableDigest(tc.casePath)).toBe(before);
  });
});

describe('remediation:requestRereview and remediation:withdraw', () => {
  for (const [channel, resolution] of [
    ['remediation:requestRereview', 'REREVIEW'],
    ['remediation:withdraw', 'WITHDRAWN'],
  ] as const) {
    it(`${channel} moves the claim to a new generation without the revoked evidence and keeps the decision as history`, async () => {
      const { a1, b1, decisionId, rem } = await remediationOnSupersede();
      const n = receipts();
      const done = await tc.call(channel, { remediationId: rem.remediationId, expectedProjectionVersion: rem.projectionVersion, reason: 'needs a fresh look' });
      expect(receipts()).toBe(n + 1);
      expect(done).toMatchObject({ status: 'RESOLVED', resolution, newGeneration: 2, carriedDecisionId: null });
      const [receipt] = (await tc.call('audit:list', { limit: 1 })).items;
      expect(receipt!.body).toMatchObject({ resolution, successors: [], carriedBindings: [b1], droppedBindings: [a1] });
      // No decision is carried, so the receipt names none besides the one the remediation was about.
      expect(receipt!.targets).toEqual(['claim:cl-1', `remediation:${rem.remediationId}`, `decision:${decisionId}`]);
      const claim = await tc.call('claim:get', { claimId: 'cl-1' });
      expect(claim.bindings.map((b) => b.revisionId)).toEqual([b1]);
      expect(claim.historicalBindings!.map((b) => b.revisionId)).toEqual([a1, b1]);
      // No decision is in force for the new generation: the claim is back in review.
      expect(await tc.call('decision:get', { decisionId })).toMatchObject({ status: 'APPROVED', current: false });
      expect((await tc.call('review:get', { claimId: 'cl-1' })).decisionState).not.toBe('DECIDED');
      expect(await tc.call('audit:verify', {})).toMatchObject({ ok: true });
      // The gate asks for a decision on the new generation, not for remediating the old one again.
      tc.as('admin');
      const gate = await tc.call('case:gate', {});
      expect(gate.blockers.map((b) => b.message).join('\n')).not.toContain(`decision ${decisionId} on claim cl-1 rests on`);
      tc.as(ACTORS.approver);
      const again = await tc.refusal(channel, { remediationId: rem.remediationId, expectedProjectionVersion: 2, reason: 'twice' });
      expect(again.code).toBe('CONFLICT');
      expect(again.message).toContain('already resolved');
    });
  }
});

describe('clearance', () => {
  it('never shows a remediation, revocation or job about evidence outside the clearance', async () => {
    tc.as(ACTORS.revoker);
    const { revisionId: secret } = await tc.call('evidence:ingest', {
      evidenceId: 'ev-secret',
      title: 'restricted telemetry',
      kind: 'telemetry',
      content: 'restricted process event on HOST-FS01',
      context: {
        sourceType: 'edr', sourceRef: 'mde:alert:9', sourceVersion: '1', observedAt: '2026-11-20T03:24:07Z', effectiveFrom: '2026-11-20T03:24:07Z',
        validUntil: null, producerType: 'tool', producer: 'defender', tenant: 'acme', classification: 'restricted', trustTier: 'trusted',
        confidence: null, independenceGroup: null, validationMethod: 'hash+schema', appliesTo: ['HOST-FS01'],
      },
    });
    await tc.call('evidence:transition', { revisionId: secret, to: 'VALIDATED', reason: 'checked' });
    const { claimId } = await tc.call('claim:create', { claimId: 'cl-secret', statement: 'restricted claim', scope: ['HOST-FS01'], tenant: 'acme', classification: 'restricted' });
    await tc.call('claim:bind', { claimId, revisionId: secret, relation: 'FULL_SUPPORT', role: 'REQUIRED' });
    const d = await tc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'seen' });
    tc.as(ACTORS.approver);
    await tc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: secret, to: 'REVOKED', reason: 'forged' });
    tc.as(ACTORS.analyst);
    const run = await runWorker();
    expect(run.jobs).toEqual([]);
    expect(JSON.stringify(run.status)).not.toContain('ev-secret');
    expect(run.status.revocations).toEqual([]);
    expect((await tc.call('remediation:list', {})).items).toEqual([]);
    const err = await tc.refusal('remediation:get', { remediationId: 1 });
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'remediation:get: no remediation 1 is visible to you' });
    tc.as(ACTORS.approver);
    expect((await tc.call('remediation:list', {})).items.map((r) => r.claimId)).toEqual([claimId]);
  });
});
