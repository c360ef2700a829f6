import { expect, test } from './fixtures';
import { GraphViewPage } from './pages/ReviewViews';

// Deep links and history (issue 11.7): the window's place is its hash route.
test.use({ viewport: { width: 1440, height: 900 } });

test('every place is a link: reload keeps it, Back and Forward move between places, focus moves into the view', async ({ app, page }) => {
  await app.nav('disputes');
  await expect(page).toHaveURL(/#\/disputes$/);
  await expect(page.getByTestId('view-disputes')).toBeFocused();

  const graph = new GraphViewPage(app);
  await graph.open();
  await graph.claimNode('cl-powershell').dblclick();
  await expect(page).toHaveURL(/#\/graph\/claim\/cl-powershell$/);
  await page.reload();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText('cl-powershell');
  await expect(graph.claimNode('cl-powershell')).toBeVisible();

  await app.nav('evidence');
  await page.getByTestId('evidence-row-ev-inv-001@1').click();
  await expect(page).toHaveURL(/#\/evidence\/ev-inv-001%401$/);
  await page.goBack();
  await expect(page.getByTestId('view-evidence')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('view-graph')).toBeVisible();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText('cl-powershell');
  await page.goBack();
  await expect(page.getByTestId('graph-crumb-0')).toHaveAttribute('aria-current', 'location');
  await page.goForward();
  await expect(page.getByTestId('graph-crumb-1')).toHaveAttribute('aria-current', 'location');
});

test('a link opens its place in a fresh window, and a link to nothing this window knows leaves the window where it is', async ({ app }) => {
  const page = app.page;
  const url = new URL(page.url());
  await page.goto(`${url.origin}${url.pathname}#/evidence/${encodeURIComponent('ev-edr-001@1')}`);
  await expect(page.getByTestId('evidence-detail-id')).toHaveText('ev-edr-001@1');
  await page.goto(`${url.origin}${url.pathname}#/graph/disputes`);
  await expect(page.getByTestId('graph-crumb-1')).toHaveText('Disputes');
  await page.goto(`${url.origin}${url.pathname}#/nowhere/at/all`);
  await expect(page.getByTestId('status-actor')).toContainText('Acting as');
  await expect(page).toHaveURL(/#\/nowhere\/at\/all$/);
});

test('the skip link is first in the tab order and moves focus into the view', async ({ app, page }) => {
  await app.nav('review');
  // A fresh page: the first Tab goes to the first thing in the tab order.
  await page.reload();
  await expect(page.getByTestId('view-review')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-review')).toBeFocused();
});
