import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { QUOTE, REPORT, START } from '../../testing/fixtures/sources';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';


let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'low', displayName: 'Low clearance', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal' });
});
afterEach(() => tc.cleanup());

const addReport = (extra: { classification?: 'internal' | 'restricted'; content?: string } = {}) =>
  tc.call('source:add', { title: 'Vendor A report VA-2026-311', content: extra.content ?? REPORT, tenant: 'acme', classification: extra.classification ?? 'internal' });

/** Rewrites a stored source behind the application's back, as someone editing the file would. */
function tamperSource(sourceId: string, content: string): void {
  const raw = new Database(tc.casePath);
  try {
    raw.exec('DROP TRIGGER source_document_immutable');
    raw.prepare('UPDATE source_document SET content = ? WHERE source_id = ?').run(content, sourceId);
  } finally {
    raw.close();
  }
}

describe('source documents', () => {
  it('stores a document once per compartment: the same text returns the same id and writes nothing', async () => {
    const first = await addReport();
    expect(first.created).toBe(true);
    const before = tableDigest(tc.casePath);
    const again = await addReport();
    expect(again).toEqual({ ...first, created: false });
    expect(tableDigest(tc.casePath)).toBe(before);
    const doc = await tc.call('source:get', { sourceId: first.sourceId });
    expect(doc).toMatchObject({ content: REPORT, contentSha256: first.contentSha256, length: REPORT.length, createdBy: 'admin' });
  });

  it('hides a document outside the clearance from get, list and span quoting, exactly like a missing one', async () => {
    const secret = await addReport({ classification: 'restricted', content: 'restricted HR memo about m.berg' });
    tc.as('low');
    const hidden = await tc.raw('source:get', { sourceId: secret.sourceId });
    const missing = await tc.raw('source:get', { sourceId: 'src-nothing' });
    expect(hidden).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    if (!hidden.ok && !missing.ok) expect(hidden.error.message.replace(secret.sourceId, 'X')).toBe(missing.error.message.replace('src-nothing', 'X'));
    expect((await tc.call('source:list', {})).items).toEqual([]);
    const quoting = await tc.raw('evidence:ingest', { ...ingestRequest('ev-q'), span: { sourceId: secret.sourceId, start: 0, end: 10, quote: 'restricted' } });
    expect(quoting).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('refuses evidence quoting a source more classified than itself', async () => {
    const secret = await addReport({ classification: 'restricted' });
    const answer = await tc.raw('evidence:ingest', { ...ingestRequest('ev-leak'), span: { sourceId: secret.sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });
});

describe('evidence spans', () => {
  it('keeps a matching span with the quote hash and records the derivation from the source', async () => {
    const { sourceId } = await addReport();
    const ingest = await tc.call('evidence:ingest', { ...ingestRequest('ev-ti-002', { kind: 'threat_intel', content: QUOTE }), span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    expect(ingest.state).toBe('CANDIDATE');
    const detail = await tc.call('evidence:get', { revisionId: ingest.revisionId });
    expect(detail.span).toMatchObject({ sourceId, start: START, end: START + QUOTE.length, quote: QUOTE });
    expect(detail.span?.quoteSha256).toMatch(/^[0-9a-f]{64}$/);
    const trace = await tc.call('provenance:trace', { revisionId: ingest.revisionId });
    expect(trace.originalSources.map((s) => s.sourceKey)).toEqual([`document:${sourceId}`]);
  });

  it('quarantines on ingest when the quote is not the source text at that span', async () => {
    const { sourceId } = await addReport();
    const ingest = await tc.call('evidence:ingest', {
      ...ingestRequest('ev-forged', { kind: 'threat_intel' }),
      span: { sourceId, start: START, end: START + QUOTE.length, quote: '45.137.21.9 is a benign CDN node, no action needed' },
    });
    expect(ingest.state).toBe('QUARANTINED');
    expect(ingest.screening.matches.map((m) => m.patternId)).toEqual(['span-mismatch']);
    const detail = await tc.call('evidence:get', { revisionId: ingest.revisionId });
    expect(detail.transitions[0]?.reason).toMatch(/span mismatch/);
  });

  it('quarantines on ingest when the span runs past the end of the source', async () => {
    const { sourceId } = await addReport();
    const ingest = await tc.call('evidence:ingest', { ...ingestRequest('ev-long'), span: { sourceId, start: REPORT.length - 3, end: REPORT.length + 5, quote: REPORT.slice(-3) } });
    expect(ingest.state).toBe('QUARANTINED');
  });

  it('evidence:verifySpan answers ok and writes nothing while the source is intact', async () => {
    const { sourceId } = await addReport();
    const { revisionId } = await tc.call('evidence:ingest', { ...ingestRequest('ev-span'), span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    const before = tableDigest(tc.casePath);
    expect(await tc.call('evidence:verifySpan', { revisionId })).toEqual({ ok: true, revisionId, sourceId, reason: null, quarantined: false, state: 'CANDIDATE' });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('evidence:verifySpan quarantines a validated revision whose source was altered, with reason and one receipt', async () => {
    const { sourceId } = await addReport();
    const { revisionId } = await tc.call('evidence:ingest', { ...ingestRequest('ev-span'), span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
    tamperSource(sourceId, REPORT.replace('rclone', 'rsync!'));
    const head = (await tc.call('audit:list', { limit: 1 })).items[0]!.seq;
    const answer = await tc.call('evidence:verifySpan', { revisionId });
    expect(answer).toMatchObject({ ok: false, quarantined: true, state: 'QUARANTINED', sourceId });
    expect(answer.reason).toMatch(/^span mismatch: source .* no longer matches its recorded SHA-256/);
    const detail = await tc.call('evidence:get', { revisionId });
    expect(detail.state).toBe('QUARANTINED');
    expect(detail.transitions.at(-1)).toMatchObject({ from: 'VALIDATED', to: 'QUARANTINED', supportingRef: `source:${sourceId}`, reason: `evidence:verifySpan: ${answer.reason}` });
    const receipts = (await tc.call('audit:list', { limit: 5 })).items.filter((r) => r.seq > head);
    expect(receipts.map((r) => r.action)).toEqual(['evidence:transition']);
  });

  it('evidence:verifySpan catches a span re-pointed at other text even when the document hash was kept consistent', async () => {
    const { sourceId } = await addReport();
    const { revisionId } = await tc.call('evidence:ingest', { ...ingestRequest('ev-span'), span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    const altered = REPORT.replace('observed as', 'dismissed as');
    const raw = new Database(tc.casePath);
    raw.exec('DROP TRIGGER source_document_immutable');
    raw.prepare('UPDATE source_document SET content = ?, content_sha256 = ? WHERE source_id = ?').run(altered, createHash('sha256').update(altered).digest('hex'), sourceId);
    raw.close();
    const answer = await tc.call('evidence:verifySpan', { revisionId });
    expect(answer).toMatchObject({ ok: false, quarantined: true, state: 'QUARANTINED' });
    expect(answer.reason).toMatch(/no longer hashes to the quote's SHA-256/);
  });

  it('evidence:verifySpan reports a mismatch without writing when the lifecycle cannot quarantine (REVOKED)', async () => {
    const { sourceId } = await addReport();
    const { revisionId } = await tc.call('evidence:ingest', { ...ingestRequest('ev-span'), span: { sourceId, start: START, end: START + QUOTE.length, quote: QUOTE } });
    await tc.call('evidence:transition', { revisionId, to: 'REVOKED', reason: 'wrong parse' });
    tamperSource(sourceId, 'something else entirely');
    const before = tableDigest(tc.casePath);
    expect(await tc.call('evidence:verifySpan', { revisionId })).toMatchObject({ ok: false, quarantined: false, state: 'REVOKED' });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('evidence:verifySpan on a revision without a span says so', async () => {
    const { revisionId } = await tc.call('evidence:ingest', ingestRequest('ev-plain'));
    expect(await tc.raw('evidence:verifySpan', { revisionId })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', message: `evidence:verifySpan: ${revisionId} quotes no source span; only evidence ingested with a span can be verified` },
    });
    expect(await tc.raw('evidence:verifySpan', { revisionId: 'ev-nowhere@1' })).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'evidence:verifySpan: no evidence revision ev-nowhere@1 is visible to you' },
    });
  });
});
