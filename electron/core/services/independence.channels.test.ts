import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyCaseFile } from '../audit/verifyFile';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { tableDigest } from '../store/digest';

/**
 * Issue 8, items 5, 6, 9, 10 and 12 through the channels: probable copies collapse independent
 * support until a reviewer confirms otherwise, an item citing several sources does not merge them,
 * status and projection agree, partial support is counted apart, and UNRESOLVED on a quorum
 * claim needs the quorum.
 */
const VENDOR_REPORT =
  'Vendor A report VA-2026-311. The actor staged archives of the finance share on FS01 and used rclone to upload them ' +
  'to 45.137.21.9 over HTTPS between 03:10 and 03:40 UTC. The same infrastructure was seen in three earlier intrusions ' +
  'against European manufacturers. The operators deleted the staging directory after the transfer completed.';
const REPOST = `From: intel-feed@partner.example\nSubject: FWD: VA-2026-311\n\n${VENDOR_REPORT.replace('Vendor A report VA-2026-311. ', '')}`;
const OTHER =
  'EDR on FS01 recorded rclone.exe started by svc-backup at 03:09 UTC with a config file naming a remote called exfil; ' +
  'the process opened 412 files under D:\\Finance and held a TLS session to 45.137.21.9 for 31 minutes.';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

async function ingest(id: string, content: string, context: Record<string, unknown> = {}) {
  rc.as('admin');
  const out = await rc.call('evidence:ingest', ingestRequest(id, { kind: 'vendor_report', content, context: { sourceRef: `ref:${id}`, ...context } }));
  await rc.call('evidence:transition', { revisionId: out.revisionId, to: 'VALIDATED', reason: 'checklist passed' });
  return out;
}

async function claimNeedingTwo(id: string, revisionIds: string[], relation: 'FULL_SUPPORT' | 'PARTIAL_SUPPORT' = 'FULL_SUPPORT') {
  rc.as('alice');
  await rc.call('claim:create', { claimId: id, statement: `statement ${id}`, scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 2 } });
  for (const revisionId of revisionIds) await rc.call('claim:bind', { claimId: id, revisionId, relation, role: 'SUPPORTING', rationale: 'shows it' });
  rc.as('admin');
  return rc.call('claim:get', { claimId: id });
}

describe('probable copies (issue 8.5)', () => {
  it('a re-headed repost of a vendor report is found on ingest and counts as one source with it', async () => {
    const vendor = await ingest('ev-vendor', VENDOR_REPORT);
    const repost = await ingest('ev-repost', REPOST);
    expect(vendor.copies).toEqual([]);
    expect(repost.copies).toEqual([{ copyOf: vendor.revisionId, reason: expect.stringContaining('content') }]);
    const claim = await claimNeedingTwo('cl-exfil', [vendor.revisionId, repost.revisionId]);
    expect(claim.status).toBe('INSUFFICIENT');
    expect(claim.support).toEqual({ all: 2, independent: 1 });
    expect(claim.independence).toEqual([
      { refs: [vendor.revisionId, repost.revisionId].sort(), source: expect.any(String), why: [expect.stringContaining('is a probable copy of')] },
    ]);
    // evidence:get shows the link and why, from both ends.
    expect((await rc.call('evidence:get', { revisionId: repost.revisionId })).copies).toMatchObject([{ revisionId: repost.revisionId, copyOf: vendor.revisionId, independent: null }]);
    expect((await rc.call('evidence:get', { revisionId: vendor.revisionId })).copies).toHaveLength(1);
    expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
  });

  it('independent text is not flagged, and a reviewer can confirm flagged items independent with one receipt', async () => {
    const vendor = await ingest('ev-vendor', VENDOR_REPORT);
    const edr = await ingest('ev-edr', OTHER);
    expect(edr.copies).toEqual([]);
    const repost = await ingest('ev-repost', REPOST);
    rc.as('alice');
    expect(await rc.raw('evidence:confirmIndependent', { revisionId: repost.revisionId, copyOf: vendor.revisionId, reason: 'x' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    rc.as('bob');
    const before = rc.receiptCount();
    const link = await rc.call('evidence:confirmIndependent', {
      revisionId: repost.revisionId,
      copyOf: vendor.revisionId,
      reason: 'the partner re-observed the transfer in its own netflow; same wording, own sensor',
    });
    expect(link.independent).toMatchObject({ by: 'bob' });
    expect(rc.receiptCount()).toBe(before + 1);
    expect((await rc.raw('evidence:confirmIndependent', { revisionId: repost.revisionId, copyOf: vendor.revisionId, reason: 'again' })).ok).toBe(false);
    const claim = await claimNeedingTwo('cl-exfil', [vendor.revisionId, repost.revisionId]);
    expect(claim).toMatchObject({ status: 'SUPPORTED', support: { all: 2, independent: 2 } });
    expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
  });

  it('links only within the tenant and at or below the new item\u2019s classification, so no link names a hidden item', async () => {
    await ingest('ev-secret', VENDOR_REPORT, { classification: 'restricted' });
    await ingest('ev-other-tenant', VENDOR_REPORT, { tenant: 'globex' });
    const internal = await ingest('ev-internal', REPOST);
    expect(internal.copies).toEqual([]);
  });

  it('verify names a copy link removed or confirmed behind the receipts', async () => {
    const vendor = await ingest('ev-vendor', VENDOR_REPORT);
    const repost = await ingest('ev-repost', REPOST);
    rc.session.close();
    const raw = new Database(rc.casePath);
    raw.exec('DROP TRIGGER evidence_copy_confirmed_once');
    raw.prepare(`UPDATE evidence_copy SET independent_reason = 'not really', confirmed_by = 'bob', confirmed_at = '2026-11-21T00:00:00Z'`).run();
    raw.close();
    const confirmed = await verifyCaseFile(rc.casePath);
    expect(confirmed.exitCode).toBe(1);
    expect(confirmed.summary).toContain(`copy link of ${repost.revisionId} to ${vendor.revisionId} is marked independent without a receipt`);
    const raw2 = new Database(rc.casePath);
    raw2.exec('DROP TRIGGER evidence_copy_no_delete');
    raw2.prepare('DELETE FROM evidence_copy').run();
    raw2.close();
    const removed = await verifyCaseFile(rc.casePath);
    expect(removed.exitCode).toBe(1);
    expect(removed.summary).toContain(`probable copies of ${repost.revisionId} differ`);
  });
});

describe('independence and status through the channels', () => {
  it('an agent summary citing two independent reports does not merge them into one source (issue 8.6)', async () => {
    const a = await ingest('ev-a', VENDOR_REPORT, { sourceRef: 'https://vendor-a.example/VA-2026-311' });
    const b = await ingest('ev-b', OTHER, { sourceRef: 'edr:alert:88' });
    rc.as('admin');
    const summary = await rc.call('evidence:ingest', ingestRequest('ev-summary', { kind: 'agent_summary', content: 'Summary: rclone upload to 45.137.21.9 seen by EDR and reported by vendor A.' }));
    await rc.call('prov:record', {
      tenant: 'acme',
      classification: 'internal',
      edges: [
        { type: 'wasDerivedFrom', from: `rev:${summary.revisionId}`, to: `rev:${a.revisionId}` },
        { type: 'wasDerivedFrom', from: `rev:${summary.revisionId}`, to: `rev:${b.revisionId}` },
      ],
    });
    await rc.call('evidence:transition', { revisionId: summary.revisionId, to: 'VALIDATED', reason: 'ok' });
    const claim = await claimNeedingTwo('cl-exfil', [a.revisionId, b.revisionId, summary.revisionId]);
    expect(claim).toMatchObject({ status: 'SUPPORTED', support: { all: 3, independent: 2 } });
  });

  it('INSUFFICIENT and ELIGIBLE never stand side by side: too few sources is PARTIALLY_SUPPORTED, with the reason (issue 8.9)', async () => {
    const a = await ingest('ev-a', OTHER);
    const claim = await claimNeedingTwo('cl-one', [a.revisionId]);
    expect(claim.status).toBe('INSUFFICIENT');
    expect(claim.projection).toBe('PARTIALLY_SUPPORTED');
    expect(claim.projectionReasons).toEqual(["the usable evidence does not meet the claim's policy: needs 2 independent sources, has 1"]);
    const b = await ingest('ev-b', VENDOR_REPORT);
    rc.as('alice');
    await rc.call('claim:bind', { claimId: 'cl-one', revisionId: b.revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING', rationale: 'second source' });
    expect(await rc.call('claim:get', { claimId: 'cl-one' })).toMatchObject({ status: 'SUPPORTED', projection: 'ELIGIBLE' });
  });

  it('partial support is counted and shown apart from full support (issue 8.10)', async () => {
    const a = await ingest('ev-a', OTHER);
    const b = await ingest('ev-b', VENDOR_REPORT);
    const claim = await claimNeedingTwo('cl-partial', [a.revisionId, b.revisionId], 'PARTIAL_SUPPORT');
    expect(claim).toMatchObject({ status: 'INSUFFICIENT', support: { all: 0, independent: 0 }, partialSupport: { all: 2, independent: 2 } });
    const [listed] = (await rc.call('claim:list', {})).filter((c) => c.claimId === 'cl-partial');
    expect(listed!.partialSupport).toEqual({ all: 2, independent: 2 });
  });
});

describe('UNRESOLVED on a quorum claim needs the quorum (issue 8.12)', () => {
  it('refuses a lone reviewer\u2019s mark or decision until the quorum looked and could not decide', async () => {
    const ev = await rc.evidence('ev-q');
    await rc.claim('cl-q', { quorumSize: 3 });
    await rc.bind('cl-q', ev);
    rc.as('bob');
    const before = tableDigest(rc.casePath);
    const mark = await rc.raw('claim:markUnresolved', { claimId: 'cl-q', reason: 'cannot tell' });
    expect(mark).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    if (!mark.ok) expect(mark.error.message).toContain('requires a quorum review of 3 and only 0 reviewers');
    const proposal = await rc.call('decision:propose', { claimId: 'cl-q', verdict: 'UNRESOLVED', rationale: 'cannot tell' });
    rc.as('carol');
    const approve = await rc.raw('decision:approve', { decisionId: proposal.decisionId, fingerprint: proposal.fingerprint });
    expect(approve).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    rc.as('bob');
    await rc.call('decision:withdraw', { decisionId: proposal.decisionId, reason: 'votes first' });
    expect(tableDigest(rc.casePath)).not.toBe(before);

    const { basis } = await rc.call('review:get', { claimId: 'cl-q' });
    const checklist = { supportedByQuote: true, contradictingEvidence: true, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
    for (const reviewer of ['bob', 'carol', 'dave']) {
      rc.as(reviewer);
      await rc.call('review:vote', { claimId: 'cl-q', basis, refuted: null, checklist, reason: 'the logs for that night are gone; abstaining' });
    }
    rc.as('erin');
    expect(await rc.call('claim:markUnresolved', { claimId: 'cl-q', reason: 'the quorum could not decide' })).toMatchObject({ status: 'UNRESOLVED' });
  });
});
