import { expect, test } from './fixtures';

// The dashboard (issue 14 §3, seed 000 §37): the store's metrics, each with the items behind it,
// and the propagation drill on a copy of the case.
test.use({ viewport: { width: 1440, height: 900 } });

test('shows the §37 metrics as the store computes them, opens the items behind one, and runs the drill on a copy', async ({ app, page }) => {
  const before = await app.ok('audit:verify', {});
  await app.nav('dashboard');
  const metrics = await app.ok('metrics:get', {});
  for (const key of ['provenanceCompleteness', 'validationRate', 'falseConsensusRate', 'staleEvidenceUseRate', 'unauthorizedRetrievalRate'] as const) {
    const m = metrics[key];
    await expect(page.getByTestId(`metric-${key}-counts`)).toHaveText(`${m.numerator.toLocaleString('en')} of ${m.denominator.toLocaleString('en')}`);
  }
  // The must-be-zero figures hold on the demo.
  await expect(page.getByTestId('metric-unauthorizedRetrievalRate-goal')).toHaveText('meets goal');
  await expect(page.getByTestId('metric-falseConsensusRate-goal')).toHaveText('meets goal');
  await expect(page.getByTestId('metric-staleEvidenceUseRate-goal')).toHaveText('meets goal');

  // The items behind a figure open where they live.
  const withItems = (['provenanceCompleteness', 'validationRate', 'independentCorroborationRate'] as const).find((k) => metrics[k].ids.some((s) => s.total > 0 && (s.kind === 'revision' || s.kind === 'claim')))!;
  await page.getByTestId(`metric-${withItems}-items`).click();
  const sample = metrics[withItems].ids.find((s) => s.total > 0 && (s.kind === 'revision' || s.kind === 'claim'))!;
  await expect(page.getByTestId(`metric-${withItems}-ids`)).toContainText(sample.ids[0]!);
  await app.screenshot('dashboard');

  await page.getByTestId('drill-run').click();
  await expect(page.getByTestId('drill-verdict')).toContainText('Passed', { timeout: 60_000 });
  await expect(page.getByTestId('drill-quarantined')).toHaveText('yes');
  await expect(page.getByTestId('drill-injection')).toHaveText('0');
  await expect(page.getByTestId('drill-adopted')).toHaveText('0');
  await expect(page.getByTestId('drill-unauthorized')).toHaveText('0');
  await page.getByTestId('drill-report').scrollIntoViewIfNeeded();
  await app.screenshot('dashboard-drill');
  // Its figures join the metrics; the drill wrote nothing to the case.
  await expect(page.getByTestId('metric-injectionPropagation-counts')).toHaveText('0 of 7');
  await expect(page.getByTestId('metric-injectionPropagation-goal')).toHaveText('meets goal');
  expect((await app.ok('audit:verify', {})).length).toBe(before.length);

  await page.getByTestId(`metric-${withItems}-ids`).getByRole('button', { name: sample.ids[0]! }).click();
  await expect(page.getByTestId(sample.kind === 'claim' ? 'view-graph' : 'view-evidence')).toBeVisible();
});
