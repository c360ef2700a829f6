import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableDigest } from '../store/digest';
import type { TestCase } from '../../testing/testCase';
import { ACTORS, approvedDecision, claimOn, retainRequest as retain, validatedRevision, validatedSuccessor, workerCase } from '../../testing/workerScenario';

/** remediation:retainCurrentRevision on a claim bound to two revisions of one lineage: which affected binding a successor replaces. */

let tc: TestCase;
beforeEach(async () => {
  tc = await workerCase();
});
afterEach(() => tc.cleanup());

const runWorker = () => tc.call('revocation:runWorker', { maxJobs: 100 });

/** cl-1 rests on ev-a@1 (REQUIRED, decided); ev-a@2 corrects it and is bound too, as SUPPORTING, before the worker runs. */
async function boundToTwoRevisions(): Promise<{ a1: string; a2: string }> {
  const a1 = await validatedRevision(tc, 'ev-a');
  await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }]);
  await approvedDecision(tc, 'cl-1');
  const a2 = await validatedSuccessor(tc, a1);
  tc.as(ACTORS.approver);
  await tc.call('claim:bind', { claimId: 'cl-1', revisionId: a2, relation: 'PARTIAL_SUPPORT', role: 'SUPPORTING' });
  return { a1, a2 };
}

describe('remediation:retainCurrentRevision, two revisions of one lineage bound', () => {
  it('matches a successor to the closest earlier revision of its lineage when the claim is bound to two of them', async () => {
    const { a1, a2 } = await boundToTwoRevisions();
    const a3 = await validatedSuccessor(tc, a2);
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    expect(rem!.affected.map((a) => [a.revisionId, a.role])).toEqual([[a1, 'REQUIRED'], [a2, 'SUPPORTING']]);
    const x = await validatedRevision(tc, 'ev-x');
    tc.as(ACTORS.approver);
    expect((await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [x]))).message).toContain(`no affected binding does (affected: ${a1}, ${a2})`);
    expect((await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a1]))).message).toContain(`${a1} is not a later revision than ${a1}, ${a2}`);
    // a3 takes a2's place, not a1's: the REQUIRED a1 is left without one (matched to a1, the SUPPORTING a2 would need none).
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a3]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: REQUIRED binding of ${a1} has no successor; name a successor revision of the same lineage for each, or request a re-review`,
    });
  });

  it('refuses a successor already bound to the claim: one binding cannot stand in for another', async () => {
    const { a1, a2 } = await boundToTwoRevisions();
    await runWorker();
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', { status: 'OPEN' })).items;
    const before = tableDigest(tc.casePath);
    expect(await tc.refusal('remediation:retainCurrentRevision', retain(rem!, [a2]))).toEqual({
      code: 'CONFLICT',
      message: `remediation:retainCurrentRevision: ${a2} is already bound to claim cl-1; it cannot also replace ${a1}`,
    });
    expect(tableDigest(tc.casePath)).toBe(before);
  });
});
