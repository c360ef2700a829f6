import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { stateFingerprint } from '../audit/receipts';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, approvedDecision, claimOn, validatedRevision, validatedSuccessor } from '../../testing/workerScenario';

/** claim:unbind (issue 10.1): taking evidence out of a claim's basis is a new claim generation, receipted. */
let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await addActors(tc);
});
afterEach(() => tc.cleanup());

const bindingsOf = (claimId: string) =>
  tc.session.db().prepare('SELECT b.revision_id FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation WHERE b.claim_id = ? ORDER BY b.revision_id').pluck().all(claimId);

describe('claim:unbind', () => {
  it('moves the claim to a new generation without the revision, keeps every other binding (hidden ones too), and the status follows', async () => {
    const support = await validatedRevision(tc, 'ev-support');
    const against = await validatedRevision(tc, 'ev-against');
    tc.as(ACTORS.revoker);
    const { revisionId: hidden } = await tc.call('evidence:ingest', ingestRequest('ev-hidden', { context: { classification: 'restricted' } }));
    await tc.call('evidence:transition', { revisionId: hidden, to: 'VALIDATED', reason: 'checked' });
    await claimOn(tc, 'cl-1', [{ revisionId: support, role: 'SUPPORTING' }]);
    tc.as(ACTORS.revoker);
    await tc.call('claim:bind', { claimId: 'cl-1', revisionId: against, relation: 'REFUTES', role: 'SUPPORTING' });
    await tc.call('claim:bind', { claimId: 'cl-1', revisionId: hidden, relation: 'CONTEXT_ONLY', role: 'CONTEXT' });
    expect((await tc.call('claim:get', { claimId: 'cl-1' })).status).toBe('MIXED');

    // The analyst (cleared to confidential) unbinds the refuting item; the restricted binding they cannot see is carried over.
    tc.as(ACTORS.analyst);
    const after = await tc.call('claim:unbind', { claimId: 'cl-1', revisionId: against, reason: 'the refuting scan ran against the wrong host' });
    expect(after.status).toBe('SUPPORTED');
    expect(bindingsOf('cl-1')).toEqual([hidden, support].sort());
    const [receipt] = (await tc.call('audit:list', { limit: 1 })).items;
    expect(receipt).toMatchObject({ action: 'claim:unbind', targets: ['claim:cl-1', `revision:${against}`], body: { fromGeneration: 1, toGeneration: 2, revisionId: against, relation: 'REFUTES', reason: 'the refuting scan ran against the wrong host', carriedBindings: 2 } });
    expect(JSON.stringify(receipt)).not.toContain(hidden);
    // The receipt fingerprints the claim's state on both sides of the move.
    expect(receipt).toMatchObject({
      preStateFp: stateFingerprint({ claimId: 'cl-1', generation: 1 }),
      postStateFp: stateFingerprint({ claimId: 'cl-1', generation: 2 }),
    });
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
  });

  it("evidence:get says which claims bind the revision now, only those the reader may see", async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-open', [{ revisionId: a, role: 'SUPPORTING' }]);
    tc.as(ACTORS.revoker);
    // Outside the case's home scope, so stored as cl-secret~acme.restricted.
    const secret = (await tc.call('claim:create', { claimId: 'cl-secret', statement: 'restricted claim', tenant: 'acme', classification: 'restricted' })).claimId;
    await tc.call('claim:bind', { claimId: secret, revisionId: a, relation: 'REFUTES', role: 'SUPPORTING' });
    expect((await tc.call('evidence:get', { revisionId: a })).boundTo.map((b) => [b.claimId, b.relation])).toEqual([['cl-open', 'FULL_SUPPORT'], [secret, 'REFUTES']]);
    tc.as(ACTORS.analyst);
    expect((await tc.call('evidence:get', { revisionId: a })).boundTo.map((b) => b.claimId)).toEqual(['cl-open']);
    await tc.call('claim:unbind', { claimId: 'cl-open', revisionId: a, reason: 'wrong host' });
    expect((await tc.call('evidence:get', { revisionId: a })).boundTo).toEqual([]);
  });

  it('makes a decision taken on the old bindings stale', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const b = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'SUPPORTING' }, { revisionId: b, role: 'SUPPORTING' }]);
    const decisionId = await approvedDecision(tc, 'cl-1');
    expect(await tc.call('decision:get', { decisionId })).toMatchObject({ current: true, effective: true });
    tc.as(ACTORS.revoker);
    await tc.call('claim:unbind', { claimId: 'cl-1', revisionId: b, reason: 'duplicate of ev-a' });
    const after = await tc.call('decision:get', { decisionId });
    expect(after.current).toBe(false);
    expect(after.changes.join(' ')).toMatch(/generation/);
  });

  it('refuses what it cannot do, naming why, and writes nothing', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const loose = await validatedRevision(tc, 'ev-loose');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    const before = tableDigest(tc.casePath);
    tc.as(ACTORS.revoker);
    expect(await tc.raw('claim:unbind', { claimId: 'cl-1', revisionId: loose, reason: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', message: `claim:unbind: ${loose} is not bound to cl-1 (generation 1); nothing to unbind` },
    });
    expect(await tc.raw('claim:unbind', { claimId: 'cl-1', revisionId: a, reason: '  ' })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await tc.raw('claim:unbind', { claimId: 'cl-none', revisionId: a, reason: 'x' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('waits for an open remediation: that is where a revoked item is unbound', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }]);
    await approvedDecision(tc, 'cl-1');
    await validatedSuccessor(tc, a1);
    await tc.call('revocation:runWorker', {});
    tc.as(ACTORS.revoker);
    const refused = await tc.raw('claim:unbind', { claimId: 'cl-1', revisionId: a1, reason: 'superseded' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect((refused as { error: { message: string } }).error.message).toMatch(/has an open remediation; resolve it/);
  });

  it('verify names the unbind receipt when its generation is edited behind its back', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    const b = await validatedRevision(tc, 'ev-b');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'SUPPORTING' }, { revisionId: b, role: 'SUPPORTING' }]);
    tc.as(ACTORS.revoker);
    await tc.call('claim:unbind', { claimId: 'cl-1', revisionId: b, reason: 'duplicate' });
    const seq = (await tc.call('audit:list', { limit: 1 })).items[0]!.seq;
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
    const db = tc.session.db();
    // The unbound item slipped back into the new generation.
    db.prepare(`INSERT INTO claim_binding (claim_id, generation, revision_id, relation, role, rationale, created_by, created_at) SELECT claim_id, 2, revision_id, relation, role, rationale, created_by, created_at FROM claim_binding WHERE claim_id = 'cl-1' AND generation = 1 AND revision_id = ?`).run(b);
    const v = await tc.call('audit:verify', { full: true });
    expect(v.ok).toBe(false);
    expect(v.firstBroken?.reason).toContain(`the binding of ${b} to cl-1 (generation 2) was written by no receipt`);
    db.prepare('DELETE FROM claim_binding WHERE claim_id = ? AND generation = 2 AND revision_id = ?').run('cl-1', b);
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
    // The claim set back to the generation it had before the unbind.
    db.prepare(`UPDATE claim SET generation = 1 WHERE claim_id = 'cl-1'`).run();
    const back = await tc.call('audit:verify', { full: true });
    expect(back.ok).toBe(false);
    expect(back.firstBroken).toMatchObject({ seq });
    expect(back.firstBroken?.reason).toContain('generation of claim cl-1');
  });
});
