import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { TEST_PASSPHRASE, type TestCase } from '../../testing/testCase';
import { ACTORS, approvedDecision, claimOn, retainRequest as retain, validatedRevision, validatedSuccessor, workerCase } from '../../testing/workerScenario';
import { tableDigest } from '../store/digest';

/** Who may resolve a remediation: the role, the clearance, and four eyes on what a retain re-approves. */
let tc: TestCase;
beforeEach(async () => {
  tc = await workerCase();
});
afterEach(() => tc.cleanup());

const runWorker = () => tc.call('revocation:runWorker', { maxJobs: 100 });

describe('who may resolve a remediation', () => {
  it('refuses analysts, and a reviewer not cleared for all of the claim\'s evidence, saying which rule', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }]);
    tc.as(ACTORS.revoker);
    const { revisionId: secret } = await tc.call('evidence:ingest', ingestRequest('ev-s', { context: { classification: 'restricted' } }));
    await tc.call('evidence:transition', { revisionId: secret, to: 'VALIDATED', reason: 'checked' });
    await tc.call('claim:bind', { claimId: 'cl-1', revisionId: secret, relation: 'FULL_SUPPORT', role: 'SUPPORTING', rationale: 'restricted telemetry agrees' });
    await approvedDecision(tc, 'cl-1');
    await validatedSuccessor(tc, a1);
    await runWorker();
    tc.as('admin');
    await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'rev3', displayName: 'Rev Three', role: 'reviewer', tenants: ['acme'], maxClassification: 'confidential' });
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    const withdraw = { remediationId: rem!.remediationId, expectedProjectionVersion: rem!.projectionVersion, reason: 'no longer holds' };
    const before = tableDigest(tc.casePath);
    tc.as(ACTORS.analyst);
    expect(await tc.refusal('remediation:withdraw', withdraw)).toEqual({ code: 'FORBIDDEN', message: 'remediation:withdraw: resolving a remediation needs the role reviewer or admin; ana is analyst' });
    tc.as('rev3');
    expect(await tc.refusal('remediation:withdraw', withdraw)).toEqual({
      code: 'FORBIDDEN',
      message: "remediation:withdraw: 1 bound evidence revision is outside your clearance; resolving a remediation needs a reviewer cleared for all of the claim's evidence",
    });
    expect(tableDigest(tc.casePath)).toBe(before);
    // Resolved by a reviewer cleared for it all, the claim's history still shows rev3 only what rev3 may see.
    tc.as(ACTORS.approver);
    await tc.call('remediation:withdraw', withdraw);
    tc.as('rev3');
    expect((await tc.call('claim:get', { claimId: 'cl-1' })).historicalBindings!.map((b) => b.revisionId)).toEqual([a1]);
  });
});

describe('retaining re-approves the decision', () => {
  it('so its proposer may not retain it on a successor (four eyes), while another reviewer may', async () => {
    const a1 = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }]);
    tc.as('admin');
    const d = await tc.call('decision:propose', { claimId: 'cl-1', verdict: 'SUPPORTED', rationale: 'the evidence shows it' });
    tc.as(ACTORS.approver);
    await tc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    const a2 = await validatedSuccessor(tc, a1);
    await runWorker();
    tc.as('admin');
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    const before = tableDigest(tc.casePath);
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a2]))).toEqual({
      code: 'FORBIDDEN',
      message: `remediation:retainCurrentRevision: admin proposed ${d.decisionId} and cannot retain the decision on a successor (four eyes); another reviewer must`,
    });
    expect(tableDigest(tc.casePath)).toBe(before);
    tc.as(ACTORS.approver);
    expect(await tc.call('remediation:retainCurrentRevision', retain(rem!, [a2]))).toMatchObject({ status: 'RESOLVED', resolution: 'RETAINED' });
  });
});
