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
/** ev-derived is derived from ev-src; ev-src is revoked and the worker converged: one DERIVED fence. */
async function revokedSourceOfDerived() {
  const a = await validatedRevision(tc, 'ev-src');
  const b = await validatedRevision(tc, 'ev-derived');
  tc.as(ACTORS.analyst);
  await tc.call('prov:record', { tenant: 'acme', classification: 'internal', nodes: [], edges: [{ type: 'wasDerivedFrom', from: `rev:${b}`, to: `rev:${a}` }] });
  tc.as(ACTORS.revoker);
  await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'forged export' });
  await tc.call('revocation:runWorker', {});
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
    db.exec('DROP TRIGGER IF EXISTS projection_ledger_append_only; DROP TRIGGER IF EXISTS revocation_fence_append_only');
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

  it('a derived fence whose lineage, reason or time was edited no longer matches its convergence receipt', async () => {
    await revokedSourceOfDerived();
    const derived = tc.session.db().prepare(`SELECT fence_id, reason FROM revocation_fence WHERE cause = 'DERIVED'`).all() as { fence_id: number; reason: string }[];
    expect(derived).toHaveLength(1);
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
    // Hung from itself instead of the revoked item's fence: the lineage shown in the revocation view changes.
    for (const [column, value] of [['reason', 'nothing to see'], ['parent_fence_id', derived[0]!.fence_id], ['fenced_at', '2020-01-01T00:00:00.000Z']] as const) {
      const before = (tc.session.db().prepare(`SELECT ${column} FROM revocation_fence WHERE fence_id = ?`).pluck().get(derived[0]!.fence_id)) as unknown;
      tamper(`UPDATE revocation_fence SET ${column} = ? WHERE fence_id = ?`, value, derived[0]!.fence_id);
      const v = await tc.call('audit:verify', { full: true });
      expect(v.ok, column).toBe(false);
      expect(v.firstBroken?.reason, column).toMatch(/derived fences job \d+ wrote \(\d+\) differ from what this receipt recorded/);
      tamper(`UPDATE revocation_fence SET ${column} = ? WHERE fence_id = ?`, before, derived[0]!.fence_id);
    }
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
  });

  it('a job added to a derived fence, whose first job no move receipt names, is refused', async () => {
    await revokedSourceOfDerived();
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
    const derived = tc.session.db().prepare(`SELECT fence_id, root_fence_id FROM revocation_fence WHERE cause = 'DERIVED'`).get() as { fence_id: number; root_fence_id: number };
    // Its first job, written with it by the convergence, is accounted for; a second one is not.
    tamper(`INSERT INTO outbox_job (fence_id, root_fence_id, phase, status, created_at_ms) VALUES (?, ?, 'claims', 'OPEN', 0)`, derived.fence_id, derived.root_fence_id);
    const v = await tc.call('audit:verify', { full: true });
    expect(v.firstBroken?.reason).toMatch(`of fence ${derived.fence_id} is no fence's first job and no convergence's next`);
  });

  it("a projection's reasons, watermark or time edited behind its receipt is named", async () => {
    await superseded();
    await tc.call('revocation:runWorker', {});
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
    const cases = [
      ['reasons', '["all is well"]', /reasons of claim cl-1's support projection differ/],
      ['fence_watermark', 0, /fence watermark of claim cl-1's support projection differs/],
      ['computed_at', '2020-01-01T00:00:00.000Z', /support projection of claim cl-1 carries the time 2020/],
    ] as const;
    for (const [column, value, message] of cases) {
      const before = tc.session.db().prepare(`SELECT ${column} FROM support_projection WHERE claim_id = 'cl-1'`).pluck().get() as unknown;
      tamper(`UPDATE support_projection SET ${column} = ? WHERE claim_id = 'cl-1'`, value);
      const v = await tc.call('audit:verify', { full: true });
      expect(v.firstBroken?.reason, column).toMatch(message);
      tamper(`UPDATE support_projection SET ${column} = ? WHERE claim_id = 'cl-1'`, before);
    }
  });
});

