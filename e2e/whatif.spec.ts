import { expect, test } from './fixtures';

// What-if (issue 14 §2): which claims hang on one thread, and what revoking would change, written nowhere.
test.use({ viewport: { width: 1440, height: 900 } });

test('ranks the single points of failure, pretends one revoked, and writes nothing', async ({ app, page }) => {
  const before = await app.ok('audit:verify', {});
  await app.nav('whatif');
  const points = await app.ok('whatIf:case', { limit: 50 });
  expect(points.total).toBeGreaterThan(0);
  await expect(page.getByTestId('whatif-points-summary')).toContainText(`${points.total} items are single points of failure for ${points.claimsWithPoints} claims`);
  const rows = page.locator('[data-testid^="whatif-point-"]');
  await expect(rows).toHaveCount(points.items.length);
  // In the channel's order: most decided claims flipped first.
  const shown = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('whatif-point-'.length)));
  expect(shown).toEqual(points.items.map((p) => p.ref));

  const first = points.items.find((p) => p.kind === 'revision')!;
  await page.getByTestId(`whatif-toggle-${first.ref}`).check();
  const predicted = await app.ok('whatIf:revoke', { revisionIds: [first.ref] });
  await expect(page.getByTestId('whatif-changes')).toHaveText(String(predicted.statusChanges));
  await expect(page.getByTestId('whatif-remediations')).toHaveText(String(predicted.remediations));
  const flipped = predicted.claims.find((c) => c.statusAfter !== c.statusBefore)!;
  await expect(page.getByTestId(`whatif-after-${flipped.claimId}`)).toHaveText(flipped.statusAfter);
  await app.screenshot('whatif');

  // Pretending wrote nothing: the chain has the receipts it had, and the evidence its state.
  const after = await app.ok('audit:verify', {});
  expect(after.length).toBe(before.length);
  expect((await app.ok('evidence:get', { revisionId: first.ref })).state).not.toBe('REVOKED');

  // A bad id is named, not ignored.
  await page.getByTestId('whatif-add-input').fill('ev-nowhere@1');
  await page.getByTestId('whatif-add').click();
  await expect(page.getByTestId('whatif-error')).toContainText('no evidence revision ev-nowhere@1 is visible to you');
  await page.getByTestId('whatif-clear').click();
  await expect(page.getByTestId('whatif-outcome')).toHaveCount(0);
});

test('opens the what-if from an evidence item, and a claim lists its single points of failure', async ({ app, page }) => {
  const { items } = await app.ok('whatIf:case', { limit: 50 });
  const point = items.find((p) => p.kind === 'revision')!;
  const claimId = point.sample[0]!.claimId;

  const url = new URL(page.url());
  await page.goto(`${url.origin}${url.pathname}#/graph/claim/${encodeURIComponent(claimId)}`);
  await page.getByTestId(`graph-node-claim-${claimId}`).click();
  const listed = page.getByTestId(`graph-claim-detail-points-${point.ref}`);
  await expect(listed).toBeVisible();
  await expect(listed).toContainText(point.sample[0]!.statusAfter);
  await app.screenshot('whatif-claim-points');

  await page.getByTestId(`graph-node-rev-${point.ref}`).click();
  await page.getByTestId('graph-revision-detail-whatif').click();
  await expect(page.getByTestId('whatif')).toBeVisible();
  await expect(page.getByTestId(`whatif-chosen-${point.ref}`)).toBeVisible();
  await expect(page.getByTestId(`whatif-claim-${claimId}`)).toBeVisible();
});
