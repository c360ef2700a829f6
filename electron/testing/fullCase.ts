import { createReviewCase, type ReviewCase } from './reviewCase';
import { ingestRequest } from './fixtures/evidence';
import { TEST_PASSPHRASE } from './testCase';

/**
 * Test helper (not a test): a small case with rows in every domain table, built through the
 * channels: sources and spans, provenance, probable copies and a confirmed independence,
 * validation runs with an override, decisions, quorum votes, UNRESOLVED marks, a revocation the
 * worker converged, an open and a resolved remediation, a rekey. Closed, so the file is whole.
 * `stage` is called between groups of actions (a team test replicates the case as it grows).
 */
export async function buildFullCase(stage: (rc: ReviewCase, name: string) => Promise<void> = async () => {}): Promise<{ path: string; cleanup: () => void }> {
  const rc = await createReviewCase();
  const report =
    'Vendor A report VA-2026-311. The actor staged archives of the finance share on FS01 and used rclone to upload them to 45.137.21.9 ' +
    'over HTTPS between 03:10 and 03:40 UTC. The same infrastructure was seen in three earlier intrusions against European manufacturers.';
  const quote = 'used rclone to upload them to 45.137.21.9';
  const { sourceId } = await rc.call('source:add', { sourceId: 'src-va', title: 'VA-2026-311', content: report, tenant: 'acme', classification: 'internal' });
  const start = report.indexOf(quote);
  const quoted = await rc.call('evidence:ingest', { ...ingestRequest('ev-quote', { kind: 'vendor_report', content: quote }), span: { sourceId, start, end: start + quote.length, quote } });
  const original = await rc.call('evidence:ingest', ingestRequest('ev-report', { kind: 'vendor_report', content: report, context: { sourceRef: 'vendorA:311' } }));
  const copy = await rc.call('evidence:ingest', ingestRequest('ev-repost', { kind: 'threat_intel', content: `Subject: FWD\n\n${report}`, context: { sourceRef: 'isac:4471' } }));
  const legacy = await rc.call('evidence:ingest', ingestRequest('ev-legacy', { context: { sourceVersion: null } }));
  await stage(rc, 'sources and evidence');
  rc.as('bob');
  for (const r of [quoted, original, copy]) await rc.call('evidence:transition', { revisionId: r.revisionId, to: 'VALIDATED', reason: 'checklist passed' });
  await rc.call('evidence:transition', { revisionId: legacy.revisionId, to: 'VALIDATED', reason: 'ok', overrideReason: 'legacy export without a version' });
  await rc.call('evidence:confirmIndependent', { revisionId: copy.revisionId, copyOf: original.revisionId, reason: 'the ISAC re-observed it' });
  await stage(rc, 'validation and independence');
  rc.as('admin');
  await rc.call('prov:record', {
    tenant: 'acme', classification: 'internal',
    nodes: [{ kind: 'entity', id: 'page', label: 'web page' }, { kind: 'activity', id: 'parse', label: 'parse', activityType: 'parse' }],
    edges: [{ type: 'wasDerivedFrom', from: `rev:${legacy.revisionId}`, to: 'page' }, { type: 'used', from: 'parse', to: 'page' }],
  } as never);
  await stage(rc, 'provenance');
  const a = await rc.evidence('ev-a');
  const b = await rc.evidence('ev-b');
  await rc.claim('cl-decided');
  await rc.bind('cl-decided', a);
  await rc.bind('cl-decided', original.revisionId);
  await rc.claim('cl-resolved');
  await rc.bind('cl-resolved', b);
  await rc.claim('cl-quorum', { quorumSize: 3 });
  await rc.bind('cl-quorum', quoted.revisionId);
  await rc.claim('cl-unresolved');
  await stage(rc, 'claims and bindings');
  // A computation over bound evidence, cited by the decision on its claim (ev-a is revoked below).
  rc.as('bob');
  const window = await rc.call('computation:create', {
    claimId: 'cl-decided',
    question: 'when the sign-in session would have expired',
    expression: 'signin + 30 min',
    inputs: [{ name: 'signin', revisionId: a, quote: '2026-11-19T22:04:00Z' }],
  });
  for (const claimId of ['cl-decided', 'cl-resolved']) {
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'shown', ...(claimId === 'cl-decided' ? { computationRefs: [window.computationId] } : {}) });
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
  }
  await stage(rc, 'computation and decisions');
  const { basis } = await rc.call('review:get', { claimId: 'cl-quorum' });
  const checklist = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
  for (const voter of ['bob', 'carol', 'dave']) {
    rc.as(voter);
    await rc.call('review:vote', { claimId: 'cl-quorum', basis, refuted: false, checklist, reason: 'holds' });
  }
  rc.as('dave');
  await rc.call('claim:markUnresolved', { claimId: 'cl-unresolved', reason: 'logs purged' });
  await stage(rc, 'votes and an unresolved mark');
  // Revocation: a successor for ev-b (retained), ev-a revoked (remediation left open).
  const b2 = (await rc.call('evidence:revise', { supersedes: b, content: 'corrected export of ev-b', reason: 're-export' })).revisionId;
  await rc.call('evidence:transition', { revisionId: b2, to: 'VALIDATED', reason: 'checklist passed' });
  await rc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'fabricated' });
  await rc.call('revocation:runWorker', { maxJobs: 50 });
  await stage(rc, 'revision and revocation');
  rc.as('carol');
  const resolvable = (await rc.call('remediation:list', { status: 'OPEN' })).items.find((m) => m.claimId === 'cl-resolved')!;
  rc.as('erin');
  await rc.call('remediation:retainCurrentRevision', { remediationId: resolvable.remediationId, successors: [b2], expectedProjectionVersion: resolvable.projectionVersion, reason: 'same finding' });
  await stage(rc, 'remediation');
  rc.as('admin');
  await rc.call('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'dave', reason: 'new laptop' });
  await stage(rc, 'rekey');
  rc.session.close();
  return { path: rc.casePath, cleanup: () => rc.cleanup() };
}
