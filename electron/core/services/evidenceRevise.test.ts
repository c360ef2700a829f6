import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyCaseFile } from '../audit/verifyFile';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { QUOTE, REPORT, START } from '../../testing/fixtures/sources';
import { createTestCase, type TestCase } from '../../testing/testCase';


let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

const receipts = () => (tc.session.db().prepare('SELECT COUNT(*) AS n FROM audit_receipt').get() as { n: number }).n;
const addReport = () => tc.call('source:add', { title: 'Vendor A report VA-2026-311', content: REPORT, tenant: 'acme', classification: 'internal' });

async function validated(evidenceId: string): Promise<string> {
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(evidenceId));
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checklist passed' });
  return revisionId;
}

describe('evidence:revise', () => {
  it('is one action with one receipt: the new revision and the supersede it causes (issue 8.8)', async () => {
    const a1 = await validated('ev-a');
    const before = receipts();
    const { revisionId } = await tc.call('evidence:revise', { supersedes: a1, content: 'corrected export', reason: 'EDR re-export' });
    expect(receipts()).toBe(before + 1);
    expect((await tc.call('evidence:get', { revisionId: a1 })).state).toBe('SUPERSEDED');
    const [receipt] = (await tc.call('audit:list', { limit: 1 })).items;
    expect(receipt!.action).toBe('evidence:revise');
    expect(receipt!.body).toMatchObject({ revisionId, supersedes: a1, superseded: { revisionId: a1, from: 'VALIDATED', to: 'SUPERSEDED', effects: { fence: { fenceId: 1 } } } });
    // The supersede fenced the old revision's dependents as any supersede does.
    expect(tc.session.db().prepare('SELECT revision_id, cause FROM revocation_fence').all()).toEqual([{ revision_id: a1, cause: 'SUPERSEDED' }]);
    expect((await verifyCaseFile(tc.casePath)).exitCode).toBe(0);
  });

  it('verify catches the superseded revision put back behind the receipts', async () => {
    const a1 = await validated('ev-a');
    await tc.call('evidence:revise', { supersedes: a1, content: 'corrected export', reason: 'EDR re-export' });
    tc.session.close();
    const raw = new Database(tc.casePath);
    raw.prepare(`UPDATE evidence_revision SET state = 'VALIDATED' WHERE revision_id = ?`).run(a1);
    raw.close();
    const result = await verifyCaseFile(tc.casePath);
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain(`lifecycle state of ${a1} differs from the supersede this receipt recorded`);
  });

  it('takes a span: a matching quote traces to its source, a wrong one quarantines the correction (issue 8.12)', async () => {
    const { sourceId } = await addReport();
    const a1 = await validated('ev-a');
    const good = await tc.call('evidence:revise', { supersedes: a1, content: QUOTE, reason: 'quote the report', span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    expect(good.state).toBe('CANDIDATE');
    expect((await tc.call('evidence:get', { revisionId: good.revisionId })).span).toMatchObject({ sourceId, start: START });
    const trace = await tc.call('provenance:trace', { revisionId: good.revisionId });
    expect(trace.originalSources.map((s) => s.nodeId)).toEqual([`src:${sourceId}`]);
    const bad = await tc.call('evidence:revise', { supersedes: good.revisionId, content: 'misquoted', reason: 'again', span: { sourceId, start: 0, end: 6, quote: 'Vendor' + 'X' } });
    expect(bad.state).toBe('QUARANTINED');
    expect(bad.screening.matches.map((m) => m.patternId)).toContain('span-mismatch');
    expect((await verifyCaseFile(tc.casePath)).exitCode).toBe(0);
  });
});

describe('evidence:verifySpan', () => {
  it('says a quote that never matched never did, instead of "no longer" (issue 8.11)', async () => {
    const { sourceId } = await addReport();
    const { revisionId, state } = await tc.call('evidence:ingest', { ...ingestRequest('ev-mis'), span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE.replace('rclone', 'rsync') } });
    expect(state).toBe('QUARANTINED');
    const answer = await tc.call('evidence:verifySpan', { revisionId });
    expect(answer.ok).toBe(false);
    expect(answer.reason).toContain('never matched');
    expect(answer.reason).not.toContain('no longer');
  });
});
