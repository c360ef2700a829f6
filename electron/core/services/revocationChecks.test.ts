import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, approvedDecision, claimOn, validatedRevision, validatedSuccessor } from '../../testing/workerScenario';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await addActors(tc);
});
afterEach(() => tc.cleanup());

/** cl-1 rests on ev-a@1 (REQUIRED) with an approved decision; ev-a@1 is superseded by a validated ev-a@2. */
async function superseded() {
  const a1 = await validatedRevision(tc, 'ev-a');
  await claimOn(tc, 'cl-1', [{ revisionId: a1, role: 'REQUIRED' }]);
  await approvedDecision(tc, 'cl-1');
  const a2 = await validatedSuccessor(tc, a1);
  return { a1, a2 };
}
const gateKinds = async () => (await tc.call('case:gate', {})).blockers.filter((b) => b.kind === 'revalidation' || b.kind === 'remediation').map((b) => `${b.kind} ${b.target}`);

describe('completion gate', () => {
  it('blocks FINAL while a revocation converges and while its remediation is open, not after it is resolved', async () => {
    const { a1, a2 } = await superseded();
    expect(await gateKinds()).toContain(`revalidation revision:${a1}`);
    await tc.call('revocation:runWorker', {});
    expect(await gateKinds()).toContain('remediation claim:cl-1');
    expect(await gateKinds()).not.toContain(`revalidation revision:${a1}`);
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', {})).items;
    await tc.call('remediation:retainCurrentRevision', { remediationId: rem!.remediationId, successors: [a2], expectedProjectionVersion: rem!.projectionVersion, reason: 'same' });
    expect(await gateKinds()).toEqual([]);
  });
});

describe('audit verification recomputes what revocation receipts recorded', () => {
  const tamper = (sql: string, ...params: unknown[]) => {
    const db = tc.session.db();
    db.exec('DROP TRIGGER IF EXISTS projection_ledger_append_only');
    db.prepare(sql).run(...params);
  };

  it('a converge receipt no longer matches an edited projection ledger', async () => {
    await superseded();
    await tc.call('revocation:runWorker', {});
    expect((await tc.call('audit:verify', {})).ok).toBe(true);
    tamper(`UPDATE projection_ledger SET to_projection = 'ELIGIBLE'`);
    // A routine verification reads only what came after the last one; a full one re-reads every row.
    expect((await tc.call('audit:verify', {})).ok).toBe(true);
    const v = await tc.call('audit:verify', { full: true });
    expect(v.ok).toBe(false);
    expect(v.firstBroken?.reason).toContain('revocation convergence: projection ledger of job 1 differs');
  });

  it('a retain receipt no longer matches edited bindings of the generation it wrote', async () => {
    const { a2 } = await superseded();
    await tc.call('revocation:runWorker', {});
    tc.as(ACTORS.approver);
    const [rem] = (await tc.call('remediation:list', {})).items;
    await tc.call('remediation:retainCurrentRevision', { remediationId: rem!.remediationId, successors: [a2], expectedProjectionVersion: rem!.projectionVersion, reason: 'same' });
    expect((await tc.call('audit:verify', {})).ok).toBe(true);
    tamper(`UPDATE claim_binding SET role = 'CONTEXT' WHERE claim_id = 'cl-1' AND generation = 2`);
    // A routine verification reads only what came after the last one; a full one re-reads every row.
    expect((await tc.call('audit:verify', {})).ok).toBe(true);
    const v = await tc.call('audit:verify', { full: true });
    expect(v.ok).toBe(false);
    expect(v.firstBroken?.reason).toContain('remediation resolution: bindings of cl-1 generation 2 differ');
  });
});
