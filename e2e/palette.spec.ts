import { expect, test } from './fixtures';

// The command palette (issue 11.3): commands and search over the case from anywhere in the window.
test.use({ viewport: { width: 1440, height: 900 } });

test('Ctrl+K runs a command, "/" searches the case: a claim opens in the graph, evidence in the Evidence view', async ({ app, page }) => {
  await app.nav('review');
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.getByTestId('palette-input').fill('go dis');
  await expect(page.getByTestId('palette-items').getByRole('option')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('palette')).toHaveCount(0);
  await expect(page.getByTestId('view-disputes')).toBeVisible();

  // "/" outside a text field opens it too; words of a claim find the claim.
  await page.locator('body').press('/');
  await page.getByTestId('palette-input').fill('powershell');
  await expect(page.getByTestId('palette-hit-cl-powershell')).toBeVisible();
  await app.screenshot('palette-search');
  await page.getByTestId('palette-hit-cl-powershell').click();
  await expect(page.getByTestId('view-graph')).toBeVisible();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText('cl-powershell');
  await expect(page.getByTestId('graph-claim-detail-statement')).toBeVisible();

  // An evidence hit, chosen with the arrow keys, opens the Evidence view on it.
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('powershell.exe process');
  const hit = page.getByTestId('palette-hit-ev-inv-001@1');
  await expect(hit).toBeVisible();
  const options = await page.getByTestId('palette-items').getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  for (let i = 0; i < options.indexOf('palette-hit-ev-inv-001@1'); i++) await page.keyboard.press('ArrowDown');
  await expect(hit).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-evidence')).toBeVisible();
  await expect(page.getByTestId('evidence-detail-id')).toHaveText('ev-inv-001@1');

  // A command with work behind it: the full audit check, shown in the Audit view.
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('aud chain');
  await page.getByTestId('palette-command-audit:verify').click();
  await expect(page.getByTestId('view-audit')).toBeVisible();
  await expect(page.getByTestId('status-chain')).toContainText('verified');

  // Escape closes it and gives focus back; nothing matching says so.
  await page.getByTestId('nav-graph').focus();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('zzzz qqqq');
  await expect(page.getByTestId('palette-items')).toContainText('No claim or evidence visible to you matches');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('palette')).toHaveCount(0);
  await expect(page.getByTestId('nav-graph')).toBeFocused();
});
