import { expect, test } from './fixtures';

// The timeline (issue 11.4): the case as it happened, filtered and zoomed.
test.use({ viewport: { width: 1440, height: 900 } });

test('reads the case in time order, filters by claim and kind, regroups by zoom, and opens what it lists', async ({ app, page }) => {
  await app.nav('timeline');
  const all = await app.ok('timeline:list', { limit: 500 });
  await expect(page.getByTestId('timeline-count')).toHaveText(`${all.events.length} event(s)`);
  const shown = async () => page.locator('[data-testid^="timeline-event-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('timeline-event-'.length)));
  expect(await shown()).toEqual(all.events.map((e) => e.key));
  await app.screenshot('timeline');

  // Zoom regroups the same events: fewer buckets by day than by minute.
  const buckets = () => page.locator('[data-testid^="timeline-bucket-"]').count();
  await page.getByTestId('timeline-zoom-minute').click();
  const byMinute = await buckets();
  await page.getByTestId('timeline-zoom-day').click();
  expect(await buckets()).toBeLessThan(byMinute);

  // One claim: its evidence and its decisions, exactly as the channel lists them.
  await page.getByTestId('timeline-claim').fill('cl-powershell');
  const forClaim = await app.ok('timeline:list', { claimId: 'cl-powershell', limit: 500 });
  await expect(page.getByTestId('timeline-count')).toHaveText(`${forClaim.events.length} event(s)`);
  expect(await shown()).toEqual(forClaim.events.map((e) => e.key));
  await page.getByTestId('timeline-claim').fill('');

  // A kind: only that kind's evidence, no decisions.
  await page.getByTestId('timeline-kind').selectOption('threat_intel');
  const intel = await app.ok('timeline:list', { kind: 'threat_intel', limit: 500 });
  await expect(page.getByTestId('timeline-count')).toHaveText(`${intel.events.length} event(s)`);
  expect(intel.events.every((e) => e.kind === 'threat_intel')).toBe(true);

  // An unknown claim says so, and an evidence event opens the Evidence view on it.
  await page.getByTestId('timeline-kind').selectOption('');
  await page.getByTestId('timeline-claim').fill('cl-nowhere');
  await expect(page.getByTestId('timeline-error')).toContainText('no claim cl-nowhere');
  await page.getByTestId('timeline-claim').fill('');
  const first = all.events.find((e) => e.type === 'observed')!;
  await page.getByTestId(`timeline-event-${first.key}`).click();
  await expect(page.getByTestId('view-evidence')).toBeVisible();
  await expect(page.getByTestId('evidence-detail-id')).toHaveText(first.revisionId!);
});
