import { expect, test } from './fixtures';
import { EvidenceViewPage, GraphViewPage } from './pages/ReviewViews';

test.use({ viewport: { width: 1440, height: 900 } });

/**
 * Probable copies (issue 8.5): a partner bulletin that forwards vendor A's report is found on
 * ingest, counts as one source with it, and the claim shows why; a reviewer records that the two
 * are independent after all and the claim's count and status follow. Also: full and partial
 * support shown apart, and the support projection always shown with its reason.
 */
const REPORT =
  'Vendor A report VA-2026-311. The actor staged archives of the finance share on FS01 and used rclone to upload them ' +
  'to 45.137.21.9 over HTTPS between 03:10 and 03:40 UTC. The same infrastructure was seen in three earlier intrusions ' +
  'against European manufacturers. The operators deleted the staging directory after the transfer completed.';
const BULLETIN = `From: bulletin@partner-isac.example\nSubject: FWD: VA-2026-311\n\n${REPORT}`;

const context = (sourceRef: string) => ({
  sourceType: 'vendor_report', sourceRef, sourceVersion: '1', observedAt: '2026-11-21T08:00:00Z', effectiveFrom: null, validUntil: null,
  producerType: 'tool' as const, producer: 'ti-platform', tenant: 'acme', classification: 'internal' as const, trustTier: 'trusted' as const,
  confidence: null, independenceGroup: null, validationMethod: 'hash+schema', appliesTo: ['*'],
});

test('a forwarded copy counts as one source until a reviewer confirms it independent', async ({ app, page }) => {
  await app.actAs('priya.s');
  const report = await app.ok('evidence:ingest', { evidenceId: 'ev-va-311', title: 'Vendor A report VA-2026-311', kind: 'vendor_report', content: REPORT, context: context('vendorA:VA-2026-311') });
  const bulletin = await app.ok('evidence:ingest', { evidenceId: 'ev-isac-bulletin', title: 'Partner ISAC bulletin forwarding VA-2026-311', kind: 'vendor_report', content: BULLETIN, context: context('isac:bulletin:4471') });
  expect(bulletin.copies).toEqual([{ copyOf: report.revisionId, reason: expect.stringContaining('content') }]);
  for (const { revisionId } of [report, bulletin]) await app.ok('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checklist passed' });
  await app.ok('claim:create', {
    claimId: 'cl-exfil-rclone', statement: 'Finance data was exfiltrated to 45.137.21.9 with rclone', scope: ['FS01'], tenant: 'acme', classification: 'internal',
    policy: { minIndependentSources: 2 },
  });
  for (const { revisionId } of [report, bulletin]) {
    await app.ok('claim:bind', { claimId: 'cl-exfil-rclone', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING', rationale: 'reports the transfer' });
  }
  await page.reload();
  await page.getByTestId('case-name').waitFor();

  const graph = new GraphViewPage(app);
  await graph.open();
  await page.getByTestId('graph-pick-claim-cl-exfil-rclone').click();
  const detail = page.getByTestId('graph-claim-detail');
  await expect(page.getByTestId('graph-claim-detail-status')).toHaveText('INSUFFICIENT');
  await expect(page.getByTestId('graph-claim-detail-full')).toHaveText('1 / 2');
  await expect(page.getByTestId('graph-claim-detail-partial')).toHaveText('0 / 0');
  await expect(page.getByTestId('graph-claim-detail-projection')).toContainText("does not meet the claim's policy: needs 2 independent sources, has 1");
  await expect(page.getByTestId('graph-claim-detail-independence')).toContainText('is a probable copy of');
  await expect(detail).toBeVisible();
  await app.screenshot('claim-copies-merged');

  const evidence = new EvidenceViewPage(app);
  await evidence.open();
  await evidence.select(bulletin.revisionId);
  const link = page.getByTestId(`evidence-detail-copies-${report.revisionId}`);
  await expect(link.getByTestId(`evidence-detail-copies-${report.revisionId}-merged`)).toHaveText('counted as one source');
  await expect(link.getByTestId(`evidence-detail-copies-${report.revisionId}-why`)).toContainText('Same content');
  await link.getByTestId(`evidence-detail-copies-${report.revisionId}-start`).click();
  // An empty reason is refused by the service, with the field named.
  await link.getByTestId(`evidence-detail-copies-${report.revisionId}-confirm`).click();
  await expect(link.getByTestId(`evidence-detail-copies-${report.revisionId}-error`)).toContainText('reason');
  await link.getByTestId(`evidence-detail-copies-${report.revisionId}-reason`).fill('The ISAC re-observed the transfer in its own netflow; same wording, own sensor.');
  await link.getByTestId(`evidence-detail-copies-${report.revisionId}-confirm`).click();
  await expect(link.getByTestId(`evidence-detail-copies-${report.revisionId}-independent`)).toHaveText('independent');
  await app.screenshot('evidence-copy-confirmed');

  // The graph keeps the claim selected; its detail now reflects the confirmation.
  await graph.open();
  await expect(page.getByTestId('graph-claim-detail-status')).toHaveText('SUPPORTED');
  await expect(page.getByTestId('graph-claim-detail-full')).toHaveText('2 / 2');
  await expect(page.getByTestId('graph-claim-detail-projection')).toContainText('ELIGIBLE');
});
