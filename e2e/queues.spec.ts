import { expect, test } from './fixtures';
import { generatedEvidenceId, writeGeneratedBundle } from '../electron/testing/generatedBundle';
import { EvidenceViewPage } from './pages/ReviewViews';
import { ingestRequest } from '../electron/testing/fixtures/evidence';
import type { WorkbenchPage } from './pages/WorkbenchPage';

/** Two more candidates than the demo has (it keeps one), observed on different days. */
async function addCandidates(app: WorkbenchPage): Promise<void> {
  for (const [id, day] of [['ev-fw-101', '18'], ['ev-fw-102', '19']] as const) {
    const observedAt = `2026-11-${day}T02:10:00Z`;
    await app.ok('evidence:ingest', ingestRequest(id, { kind: 'log_record', content: `firewall deny 10.0.4.${day} -> 45.137.21.9:443 (${id})`, context: { observedAt, effectiveFrom: observedAt, sourceRef: `fw:${id}` } }));
  }
}

test.use({ viewport: { width: 1440, height: 900 } });

test('the evidence queue sorts, filters and validates a selection; its filter is remembered for the case', async ({ app, page }) => {
  await addCandidates(app);
  const evidence = new EvidenceViewPage(app);
  await evidence.open();
  await evidence.sortBy('observed-desc');
  const [newest] = (await app.ok('evidence:list', { sort: 'observed-desc', limit: 1 })).items;
  await expect(page.locator('[data-testid^="evidence-row-"]:not([data-testid^="evidence-row-state-"])').first()).toHaveAttribute('data-testid', `evidence-row-${newest!.revisionId}`);

  await evidence.filterState('CANDIDATE');
  const candidates = (await app.ok('evidence:list', { state: 'CANDIDATE', sort: 'observed-desc', limit: 200 })).items;
  expect(candidates.length).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('evidence-count')).toHaveText(`${candidates.length} matching`);
  const head = (await app.ok('audit:list', { limit: 1 })).items[0]!.seq;
  const [a, b] = candidates;
  await page.getByTestId(`evidence-pick-${a!.revisionId}`).check();
  await page.getByTestId(`evidence-pick-${b!.revisionId}`).check();
  await expect(page.getByTestId('evidence-bulk-count')).toHaveText('2 candidate(s) selected');
  await page.getByTestId('evidence-bulk-validate').click();
  await expect(page.getByTestId('evidence-bulk-confirm')).toBeDisabled();
  await page.getByTestId('evidence-bulk-reason').fill('sources and hashes checked against the SIEM export');
  await app.screenshot('evidence-bulk-validate');
  await page.getByTestId('evidence-bulk-confirm').click();
  await expect(page.getByTestId('evidence-bulk-done')).toContainText('Validated 2 revision(s)');
  await expect(page.getByTestId('evidence-count')).toHaveText(`${candidates.length - 2} matching`);
  const receipts = (await app.ok('audit:list', { limit: 10 })).items.filter((r) => r.seq > head);
  expect(receipts.map((r) => `${r.action} ${String(r.body.revisionId)} ${String(r.body.to)}`).sort()).toEqual(
    [a!, b!].map((r) => `evidence:transition ${r.revisionId} VALIDATED`).sort(),
  );

  // The filter and order come back with the case after a reload.
  await page.reload();
  await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
  await evidence.open();
  await expect(page.getByTestId('evidence-filter-state-CANDIDATE')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('evidence-sort')).toHaveValue('observed-desc');
  await expect(page.getByTestId('evidence-count')).toHaveText(`${candidates.length - 2} matching`);
});

test('a selection that moved meanwhile is refused whole, naming the revision, and nothing is validated', async ({ app, page }) => {
  await addCandidates(app);
  const evidence = new EvidenceViewPage(app);
  await evidence.open();
  await evidence.filterState('CANDIDATE');
  const [a, b] = (await app.ok('evidence:list', { state: 'CANDIDATE', limit: 2 })).items;
  await page.getByTestId(`evidence-pick-${a!.revisionId}`).check();
  await page.getByTestId(`evidence-pick-${b!.revisionId}`).check();
  // Another reviewer quarantines one of them before this one confirms.
  await app.ok('evidence:transition', { revisionId: b!.revisionId, to: 'QUARANTINED', reason: 'moved in another window' });
  await page.getByTestId('evidence-bulk-validate').click();
  await page.getByTestId('evidence-bulk-reason').fill('checked');
  await page.getByTestId('evidence-bulk-confirm').click();
  await expect(page.getByTestId('evidence-bulk-error-code')).toHaveText('CONFLICT');
  await expect(page.getByTestId('evidence-bulk-error-message')).toContainText(`${b!.revisionId} is QUARANTINED now, not CANDIDATE`);
  expect((await app.ok('evidence:get', { revisionId: a!.revisionId })).state).toBe('CANDIDATE');
});

test('on a generated case of 10,000 claims: the queue draws a screenful, reads on as it scrolls, filters, sorts and bulk-validates', async ({ app, page, workbench }) => {
  test.setTimeout(180_000);
  const imported = await app.ok('bundle:import', { path: writeGeneratedBundle(workbench.userDataDir) });
  expect(imported.created).toMatchObject({ claims: 10_000, evidence: 10_000, bindings: 10_000 });
  await page.reload();
  await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
  const evidence = new EvidenceViewPage(app);
  await evidence.open();
  const all = (await app.ok('evidence:list', { limit: 1, counts: true })).counts!.total;
  expect(all).toBeGreaterThanOrEqual(10_000);
  await expect(page.getByTestId('evidence-count')).toHaveText(`${all.toLocaleString('en')} matching · 100 loaded, more as you scroll`);
  const drawn = () => page.locator('[data-testid^="evidence-row-"]:not([data-testid^="evidence-row-state-"])').count();
  expect(await drawn()).toBeLessThan(60);
  // Scrolled to the end of what was read, the next page is read.
  await page.getByTestId('evidence-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId('evidence-count')).toContainText('200 loaded');
  expect(await drawn()).toBeLessThan(60);

  await evidence.sortBy('observed-asc');
  const [oldest] = (await app.ok('evidence:list', { sort: 'observed-asc', limit: 1 })).items;
  await expect(page.locator('[data-testid^="evidence-row-"]:not([data-testid^="evidence-row-state-"])').first()).toHaveAttribute('data-testid', `evidence-row-${oldest!.revisionId}`);

  await page.getByTestId('evidence-filter-text').fill(generatedEvidenceId(4200).slice(0, -1));
  await expect(page.getByTestId('evidence-count')).toHaveText('10 matching');
  await evidence.filterState('CANDIDATE');
  const listed = await evidence.listedIds();
  expect(listed.length).toBeGreaterThan(0);
  expect(listed.every((id) => id.startsWith('gen-ev-0420'))).toBe(true);
  for (const id of listed) await page.getByTestId(`evidence-pick-${id}`).check();
  await page.getByTestId('evidence-bulk-validate').click();
  await page.getByTestId('evidence-bulk-reason').fill('batch of EDR events checked against the export manifest');
  await page.getByTestId('evidence-bulk-confirm').click();
  await expect(page.getByTestId('evidence-bulk-done')).toContainText(`Validated ${listed.length} revision(s)`);
  await expect(page.getByTestId('evidence-count')).toHaveText('0 matching');
  await evidence.filterState('VALIDATED');
  expect((await evidence.listedIds()).sort()).toEqual([...listed].sort());
  await app.screenshot('evidence-queue-10k');

  // Disputes and Remediations read their pages from the store (claim:page, evidence:list), never the whole case.
  const claimOf = async (revisionId: string) => (await app.ok('evidence:get', { revisionId })).boundTo[0]!.claimId;
  const [supported, refuting, disputed, revoked] = listed as [string, string, string, string];
  const mixed = await claimOf(supported);
  await app.ok('claim:bind', { claimId: mixed, revisionId: refuting, relation: 'REFUTES', role: 'SUPPORTING' });
  await app.ok('evidence:transition', { revisionId: disputed, to: 'DISPUTED', reason: 'the export and the live EDR disagree on the host' });
  const unsettled = await claimOf(revoked);
  await app.ok('evidence:transition', { revisionId: revoked, to: 'REVOKED', reason: 'exported from the wrong tenant' });
  const mixedCount = (await app.ok('claim:page', { status: 'MIXED', limit: 1, counts: true })).counts!.byStatus.MIXED;
  await app.nav('disputes');
  const disputedCount = (await app.ok('evidence:list', { state: 'DISPUTED', limit: 1, counts: true })).counts!.byState.DISPUTED;
  expect(mixedCount).toBeGreaterThan(0);
  await expect(page.getByTestId('dispute-count')).toHaveText(`${mixedCount.toLocaleString('en')} MIXED · ${disputedCount} DISPUTED`);
  expect(await page.locator('[data-testid^="dispute-entry-"]').count()).toBeLessThan(40);
  await page.getByTestId('dispute-filter').fill(mixed);
  await expect(page.getByTestId(`dispute-entry-claim:${mixed}`)).toBeVisible();
  await page.getByTestId('dispute-filter').fill(disputed);
  await expect(page.getByTestId(`dispute-entry-revision:${disputed}`)).toBeVisible();
  await expect(page.getByTestId('dispute-revision-bound')).toContainText(await claimOf(disputed));
  await app.screenshot('disputes-10k');
  await app.nav('remediations');
  // What the revocation just touched first; every claim not eligible (thousands here) on request.
  await expect(page.getByTestId(`projection-claim-${unsettled}`)).toBeVisible();
  const pendingCount = (await app.ok('claim:page', { projection: 'PENDING_REVALIDATION', limit: 1, counts: true })).counts!.total;
  await expect(page.getByTestId('projection-claims-count')).toHaveText(pendingCount.toLocaleString('en'));
  await app.screenshot('remediations-10k');
  await page.getByTestId('projection-claims-scope-all').click();
  const notEligible = (await app.ok('claim:page', { unsettled: true, limit: 1, counts: true })).counts!.total;
  expect(notEligible).toBeGreaterThan(1000);
  await expect(page.getByTestId('projection-claims-count')).toHaveText(notEligible.toLocaleString('en'));
  await expect(page.locator('[data-testid^="projection-claim-"]:not([data-testid^="projection-claims"])')).toHaveCount(100);
  await page.getByTestId('projection-claims-more').click();
  await expect(page.locator('[data-testid^="projection-claim-"]:not([data-testid^="projection-claims"])')).toHaveCount(200);
  // The intake pickers offer a few matches as one types.
  await app.nav('intake');
  await page.getByTestId('intake-bind-claim').fill(mixed.slice(0, -1));
  await expect(page.getByTestId('intake-bind-claim-options').locator(`option[value="${mixed}"]`)).toHaveCount(1);
  expect(await page.getByTestId('intake-bind-claim-options').locator('option').count()).toBeLessThanOrEqual(20);

  // The review queue too is read a page at a time (review:page), ordered and counted by the store.
  await app.nav('review');
  const reviewCounts = (await app.ok('review:page', { limit: 1, counts: true })).counts!;
  expect(reviewCounts.all).toBeGreaterThan(10_000);
  await expect(page.getByTestId('review-filter-all')).toContainText(`All ${reviewCounts.all}`);
  const entries = page.locator('button[data-testid^="review-entry-"]');
  const [mostUrgent] = (await app.ok('review:page', { limit: 1 })).items;
  await expect(entries.first()).toHaveAttribute('data-testid', `review-entry-${mostUrgent!.claimId}`);
  expect(await entries.count()).toBeLessThan(40);
  await app.screenshot('review-10k');
  // Scrolled past the first page, the next one is read and drawn in the store's order.
  const later = (await app.ok('review:page', { limit: 150 })).items[149]!;
  const queueList = page.getByTestId('review-queue');
  await queueList.locator('xpath=..').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  // Every entry is 124 px: with room for 150 of them, the second page is in. (Waiting only for more
  // than 100 entries' height let the scroll below land before it arrived, clamped short of entry 150.)
  await expect.poll(() => queueList.evaluate((ul) => ul.scrollHeight)).toBeGreaterThanOrEqual(150 * 124);
  await queueList.evaluate((ul) => {
    const pane = ul.parentElement!;
    pane.scrollTo(0, ul.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop + 149 * 124 - 200);
  });
  await expect(page.getByTestId(`review-entry-${later.claimId}`)).toBeVisible();
  expect(await entries.count()).toBeLessThan(40);
  await page.getByTestId('review-filter-settled').click();
  await expect(page.getByTestId('review-filter-settled')).toContainText(`Settled ${reviewCounts.settled}`);
  const [settled] = (await app.ok('review:page', { filter: 'settled', limit: 1 })).items;
  await expect(entries.first()).toHaveAttribute('data-testid', `review-entry-${settled!.claimId}`);
});

test('the review queue shows what awaits me apart from the rest, and remembers that filter for the case', async ({ app, page }) => {
  await app.actAs('jonas.w');
  // Claims jonas.w sees whole (no evidence behind them above his clearance): a proposal on one may await him.
  const jonasSees = new Set<string>();
  for (const i of (await app.ok('review:list', {})).items.filter((r) => r.decisionState === 'UNDECIDED')) {
    if ((await app.ok('review:get', { claimId: i.claimId })).hiddenEvidenceRefs === 0) jonasSees.add(i.claimId);
  }
  await app.actAs('priya.s');
  let claim: { claimId: string } | undefined;
  // Not a quorum claim: there the proposer still owes a vote of their own, and this test is about approval.
  for (const i of (await app.ok('review:list', {})).items) {
    if (jonasSees.has(i.claimId) && i.quorumTier === null && (await app.ok('review:get', { claimId: i.claimId })).author !== 'jonas.w') {
      claim = i;
      break;
    }
  }
  if (!claim) throw new Error('the demo case has no undecided claim without a quorum both priya.s and jonas.w may see');
  await app.ok('decision:propose', { claimId: claim.claimId, verdict: 'SUPPORTED', rationale: 'two independent sign-in logs agree' });
  await app.actAs('jonas.w');
  await app.nav('review');
  const owed = (await app.ok('review:list', {})).items.filter((i) => i.awaitingMe !== null);
  expect(owed.find((i) => i.claimId === claim.claimId)?.awaitingMe).toBe('approve');
  await expect(page.getByTestId('review-filter-mine')).toContainText(`Awaiting me ${owed.length}`);
  await page.getByTestId('review-filter-mine').click();
  await expect(page.locator('button[data-testid^="review-entry-"]')).toHaveCount(owed.length);
  await expect(page.getByTestId(`review-entry-awaiting-${claim.claimId}`)).toHaveText('yours to approve');
  await app.screenshot('review-awaiting-me');
  // The proposer is owed nothing on it.
  await page.reload();
  await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
  await app.nav('review');
  await expect(page.getByTestId('review-filter-mine')).toHaveAttribute('aria-pressed', 'true');
  await app.actAs('priya.s');
  await expect(page.getByTestId(`review-entry-${claim.claimId}`)).toHaveCount(0);
});
