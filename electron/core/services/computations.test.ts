import { copyFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { StoredReceiptFacts } from '../audit/stateChecks';
import { verifyCaseFile } from '../audit/verifyFile';
import type { CaseDb } from '../store/caseFile';
import { COMPUTATION_STATE_CHECKS } from './computationChecks';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { openAsAttacker } from '../../testing/tamper';

const EXPORT_LOG =
  'Export job exp-77 on HOST-FS01 read 12,400 records and sent them in batches of 10,000 between 03:10 and 03:40 UTC; 22 MB left the host.';

let rc: ReviewCase;
let log: string;
beforeEach(async () => {
  rc = await createReviewCase();
  rc.as('admin');
  log = (await rc.call('evidence:ingest', ingestRequest('ev-export', { kind: 'log_record', content: EXPORT_LOG, context: { appliesTo: ['acme'] } }))).revisionId;
  await rc.call('evidence:transition', { revisionId: log, to: 'VALIDATED', reason: 'checked' });
  await rc.claim('cl-batches');
  await rc.bind('cl-batches', log);
  rc.as('bob');
});
afterEach(() => rc.cleanup());

const batches = () =>
  rc.call('computation:create', {
    claimId: 'cl-batches',
    question: 'how many batches the export needed',
    expression: 'ceil(records / batch_size)',
    inputs: [
      { name: 'records', revisionId: log, quote: '12,400' },
      { name: 'batch_size', revisionId: log, quote: '10,000' },
    ],
  });

describe('computation:create', () => {
  it('computes from numbers quoted in evidence, keeps where each came from, and receipts it', async () => {
    const before = rc.receiptCount();
    const c = await batches();
    expect(c).toMatchObject({ claimId: 'cl-batches', generation: 1, result: '2', state: 'CURRENT', reasons: [], createdBy: 'bob' });
    expect(c.inputs[0]).toMatchObject({ name: 'records', revisionId: log, start: EXPORT_LOG.indexOf('12,400'), end: EXPORT_LOG.indexOf('12,400') + 6, value: '12400' });
    expect(rc.receiptCount()).toBe(before + 1);
    expect((await rc.call('computation:list', { claimId: 'cl-batches' })).computations.map((x) => x.computationId)).toEqual([c.computationId]);
    // A quantity and a time difference: "22 MB left between 03:10 and 03:40" is 22 MB per 30 min.
    const rate = await rc.call('computation:create', {
      claimId: 'cl-batches',
      question: 'how much left per minute',
      expression: '(sent in KB) / ((until - from) / 1 min)',
      inputs: [
        { name: 'sent', revisionId: log, quote: '22 MB' },
        { name: 'from', revisionId: log, quote: '03:10' },
        { name: 'until', revisionId: log, quote: '03:40' },
      ],
    });
    expect(rate.result).toBe('2200/3 KB');
  });

  it('refuses bad input with the field and what was expected, and writes nothing', async () => {
    rc.as('admin');
    const loose = (await rc.call('evidence:ingest', ingestRequest('ev-loose', { content: 'loose 5 records' }))).revisionId;
    rc.as('bob');
    const before = rc.receiptCount();
    const refusal = async (change: object) => rc.refusal('computation:create', { claimId: 'cl-batches', question: 'q', expression: 'ceil(records / batch_size)', inputs: [{ name: 'records', revisionId: log, quote: '12,400' }, { name: 'batch_size', revisionId: log, quote: '10,000' }], ...change });
    const notQuoted = await refusal({ inputs: [{ name: 'records', revisionId: log, quote: '12,500' }, { name: 'batch_size', revisionId: log, quote: '10,000' }] });
    expect(notQuoted.message).toContain('"12,500" does not appear in the evidence content');
    expect(notQuoted.issues?.[0]?.path).toEqual(['inputs', 0, 'quote']);
    const typo = await refusal({ expression: 'ceil(records / bacth_size)' });
    expect(typo.message).toMatch(/"bacth_size" is not an input/);
    expect(typo.issues?.[0]?.path).toEqual(['expression']);
    const syntax = await refusal({ expression: 'ceil(records / )' });
    expect(syntax.message).toMatch(/at column \d+/);
    expect((await refusal({ expression: 'records / (batch_size - 10000)' })).message).toMatch(/division by zero|divide by zero|zero/i);
    expect((await refusal({ expression: 'records' })).message).toContain('"batch_size" is not used by the expression');
    expect((await refusal({ expression: 'n', inputs: [{ name: 'n', revisionId: loose, quote: '5' }] })).message).toContain(`${loose} is not bound to claim cl-batches`);
    expect(rc.receiptCount()).toBe(before);
    expect((await rc.call('computation:list', { claimId: 'cl-batches' })).computations).toEqual([]);
  });
});

describe('decisions citing computations', () => {
  it('cite only the claim’s own current computations', async () => {
    const c = await batches();
    expect((await rc.refusal('decision:propose', { claimId: 'cl-batches', verdict: 'SUPPORTED', rationale: 'r', computationRefs: ['cmp-nowhere'] })).message).toContain('cmp-nowhere is not a computation recorded on claim cl-batches');
    const d = await rc.call('decision:propose', { claimId: 'cl-batches', verdict: 'SUPPORTED', rationale: 'two batches, as the log says', computationRefs: [c.computationId] });
    expect(d.computationRefs).toEqual([c.computationId]);
  });

  it('revoking an input fences the computation and what cites it: no new citation, pending, then a remediation; the gate names it', async () => {
    const c = await batches();
    // Made twice (a second reviewer's check of the same sum): the decision cites both.
    const again = await batches();
    const d = await rc.call('decision:propose', { claimId: 'cl-batches', verdict: 'SUPPORTED', rationale: 'two batches', computationRefs: [c.computationId, again.computationId] });
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    rc.as('bob');
    const whatIf = await rc.call('whatIf:revoke', { revisionIds: [log] });
    expect(whatIf.computations.map((x) => x.computationId).sort()).toEqual([c.computationId, again.computationId].sort());
    expect(whatIf.claims[0]).toMatchObject({ claimId: 'cl-batches', opensRemediation: true });

    await rc.call('evidence:transition', { revisionId: log, to: 'REVOKED', reason: 'the export log was forged' });
    const [fenced, fencedAgain] = (await rc.call('computation:list', { claimId: 'cl-batches' })).computations;
    expect([fenced!.state, fencedAgain!.state]).toEqual(['FENCED', 'FENCED']);
    expect(fenced!.reasons.join()).toContain('REVOKED');
    expect((await rc.refusal('decision:propose', { claimId: 'cl-batches', verdict: 'SUPPORTED', rationale: 'r', computationRefs: [c.computationId] })).message).toContain(`computation ${c.computationId} is FENCED`);
    // Pending from the moment of the revoke, like any dependent; the worker then opens the remediation.
    expect((await rc.call('claim:get', { claimId: 'cl-batches' })).pendingRevalidation).toBe(true);
    rc.as('admin');
    await rc.call('revocation:runWorker', { maxJobs: 10 });
    const [open] = (await rc.call('remediation:list', { status: 'OPEN' })).items;
    expect(open).toMatchObject({ claimId: 'cl-batches', decision: { decisionId: d.decisionId } });
    const gate = await rc.call('case:gate', {});
    expect(gate.blockers.filter((b) => b.check === 'decided computations')).toContainEqual({
      kind: 'revalidation',
      target: `decision:${d.decisionId}`,
      message: `decision ${d.decisionId} on claim cl-batches cites computation ${c.computationId}, whose input ${log} is REVOKED; re-review the claim and record the computation again on usable evidence`,
      check: 'decided computations',
    });
    // Retaining a successor would carry the decision to a new generation its computation was not made for.
    rc.as('admin');
    const next = (await rc.call('evidence:revise', { supersedes: log, content: EXPORT_LOG.replace('exp-77', 'exp-77b'), reason: 're-exported' })).revisionId;
    await rc.call('evidence:transition', { revisionId: next, to: 'VALIDATED', reason: 'checked' });
    rc.as('erin');
    const refusal = await rc.refusal('remediation:retainCurrentRevision', { remediationId: open!.remediationId, successors: [next], expectedProjectionVersion: open!.projectionVersion, reason: 'same export' });
    // Named in the decision's own (sorted) order.
    expect(refusal.message).toContain(`cites computations (${[c.computationId, again.computationId].sort().join(', ')})`);
  });

  it('computes only over evidence the claim relies on, not CONTEXT', async () => {
    const other = await rc.evidence('ev-other');
    await rc.claim('cl-ctx');
    await rc.bind('cl-ctx', other);
    rc.as('alice');
    await rc.call('claim:bind', { claimId: 'cl-ctx', revisionId: log, relation: 'CONTEXT_ONLY', role: 'CONTEXT' });
    rc.as('bob');
    const refusal = await rc.refusal('computation:create', { claimId: 'cl-ctx', question: 'q', expression: 'n', inputs: [{ name: 'n', revisionId: log, quote: '12,400' }] });
    expect(refusal.message).toContain(`${log} is bound to claim cl-ctx as CONTEXT`);
  });

  it('approval is refused once a cited computation is fenced', async () => {
    const c = await batches();
    const d = await rc.call('decision:propose', { claimId: 'cl-batches', verdict: 'SUPPORTED', rationale: 'two batches', computationRefs: [c.computationId] });
    await rc.call('evidence:transition', { revisionId: log, to: 'DISPUTED', reason: 'a second export log disagrees' });
    rc.as('carol');
    expect((await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).message).toContain(`computation ${c.computationId} is FENCED`);
  });
});

describe('verify recomputes every computation', () => {
  it('names a result its own arithmetic does not give even when the receipt agrees with the row (a receipt a faulty build wrote)', async () => {
    const c = await batches();
    rc.session.close();
    const db = new Database(rc.casePath, { readonly: true });
    const receipt = db.prepare("SELECT * FROM audit_receipt WHERE action = 'computation:create'").get() as { seq: number; at: string; actor: string; targets: string; body: string };
    db.close();
    const attacker = openAsAttacker(rc.casePath);
    attacker.prepare('UPDATE computation SET result = ? WHERE computation_id = ?').run('3', c.computationId);
    const body = JSON.stringify({ ...JSON.parse(receipt.body), result: '3' });
    const facts = new StoredReceiptFacts(receipt.seq, receipt.at, true, 'computation:create', receipt.actor, JSON.parse(receipt.targets) as string[], body, null, {});
    expect(COMPUTATION_STATE_CHECKS[0]!.check(attacker as unknown as CaseDb, facts, '')).toBe(`computation ${c.computationId} recomputes to 2, not the recorded 3`);
    // And an input that no longer reads the value recorded for it.
    const inputs = c.inputs.map((i) => (i.name === 'records' ? { ...i, value: '12401' } : i));
    attacker.prepare('UPDATE computation SET result = ?, inputs = ? WHERE computation_id = ?').run('2', JSON.stringify(inputs), c.computationId);
    const withInputs = new StoredReceiptFacts(receipt.seq, receipt.at, true, 'computation:create', receipt.actor, JSON.parse(receipt.targets) as string[], JSON.stringify({ ...JSON.parse(receipt.body), inputs }), null, {});
    expect(COMPUTATION_STATE_CHECKS[0]!.check(attacker as unknown as CaseDb, withInputs, '')).toBe(`computation ${c.computationId}: input "records" reads 12400, not the recorded 12401`);
    attacker.close();
  });

  it('names a tampered result, a tampered input quote and a computation no receipt wrote', async () => {
    const c = await batches();
    rc.session.close();
    const tamper = async (sql: string, ...params: unknown[]) => {
      const copy = `${rc.casePath}.${Math.random().toString(36).slice(2)}.sqlite`;
      copyFileSync(rc.casePath, copy);
      const db = openAsAttacker(copy);
      db.prepare(sql).run(...params);
      db.close();
      return (await verifyCaseFile(copy)).summary;
    };
    expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
    expect(await tamper('UPDATE computation SET result = ? WHERE computation_id = ?', '1', c.computationId)).toContain(`computation ${c.computationId}`);
    const inputs = c.inputs.map((i) => (i.name === 'records' ? { ...i, quote: '22,400', value: '22400' } : i));
    expect(await tamper('UPDATE computation SET inputs = ? WHERE computation_id = ?', JSON.stringify(inputs), c.computationId)).toContain(`computation ${c.computationId}`);
    expect(
      await tamper(
        `INSERT INTO computation SELECT 'cmp-forged', claim_id, generation, question, expression, inputs, '3', tenant, classification, created_by, created_at FROM computation WHERE computation_id = ?`,
        c.computationId,
      ),
    ).toContain('computation cmp-forged was written by no receipt');
  });
});
