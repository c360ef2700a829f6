import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

const REPORT = 'Vendor A: 45.137.21.9 observed as exfiltration endpoint for rclone.';

/** A case exercising every receipt these checks know: source, span, provenance, override, UNRESOLVED. */
async function buildCase(): Promise<{ seqOf: (action: string) => number }> {
  const { sourceId } = await tc.call('source:add', { sourceId: 'src-va', title: 'VA', content: REPORT, tenant: 'acme', classification: 'internal' });
  const quote = '45.137.21.9 observed as exfiltration endpoint';
  const start = REPORT.indexOf(quote);
  await tc.call('evidence:ingest', { ...ingestRequest('ev-q'), span: { sourceId, start, end: start + quote.length, quote } });
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest('ev-o', { context: { sourceVersion: null } }));
  await tc.call('prov:record', { tenant: 'acme', classification: 'internal', nodes: [{ kind: 'entity', id: 'page', label: 'page' }], edges: [{ type: 'wasDerivedFrom', from: `rev:${revisionId}`, to: 'page' }] });
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'ok', overrideReason: 'legacy export without a version' });
  await tc.call('claim:create', { claimId: 'cl-1', statement: 'something', tenant: 'acme', classification: 'internal' });
  await tc.call('claim:markUnresolved', { claimId: 'cl-1', reason: 'first' });
  await tc.call('claim:clearUnresolved', { claimId: 'cl-1', reason: 'new data' });
  await tc.call('claim:markUnresolved', { claimId: 'cl-1', reason: 'second' });
  const items = (await tc.call('audit:list', { limit: 100 })).items;
  return { seqOf: (action) => items.find((r) => r.action === action)!.seq };
}

function tamper(sql: string, dropTrigger?: string): void {
  const raw = new Database(tc.casePath);
  try {
    if (dropTrigger) raw.exec(`DROP TRIGGER ${dropTrigger}`);
    raw.exec(sql);
  } finally {
    raw.close();
  }
}

describe('audit verification of issue-3 receipts', () => {
  it('verifies a case using sources, spans, provenance, overrides and UNRESOLVED marks, checking their receipts', async () => {
    await buildCase();
    const v = await tc.call('audit:verify', {});
    expect(v.ok).toBe(true);
    expect(v.fingerprints.unchecked).toBe(0);
  });

  it.each([
    ['an override reason rewritten', 'evidence:transition', "UPDATE validation_run SET override_reason = 'all checks fine'", 'validation_run_append_only'],
    ['a provenance edge deleted', 'prov:record', "DELETE FROM prov_edge WHERE object = 'page'", 'prov_edge_no_delete'],
    ['the derivation a matching quote made deleted', 'evidence:ingest', "DELETE FROM prov_edge WHERE object LIKE 'src:%'", 'prov_edge_no_delete'],
    ['a declared provenance node relabelled', 'prov:record', "UPDATE prov_node SET label = 'another page' WHERE node_id = 'page'", 'prov_node_append_only'],
    ['a source document rewritten', 'source:add', "UPDATE source_document SET content = 'other text'", 'source_document_immutable'],
    ['a span re-pointed', 'evidence:ingest', 'UPDATE evidence_span SET span_start = span_start + 1', 'evidence_span_immutable'],
    ['an UNRESOLVED mark cleared behind the receipts', 'claim:markUnresolved', 'UPDATE claim SET unresolved_reason = NULL', undefined],
  ])('names the receipt when %s', async (_what, action, sql, trigger) => {
    const { seqOf } = await buildCase();
    tamper(sql, trigger);
    const v = await tc.call('audit:verify', {});
    expect(v.ok).toBe(false);
    expect(v.firstBroken).toMatchObject({ kind: 'state' });
    const items = (await tc.call('audit:list', { limit: 100 })).items;
    const broken = items.find((r) => r.seq === v.firstBroken!.seq)!;
    expect(broken.action).toBe(action);
    // The newest UNRESOLVED receipt is the one that no longer matches; earlier marks were true when made.
    if (action === 'claim:markUnresolved') expect(broken.seq).toBe(seqOf('claim:markUnresolved'));
  });
});
