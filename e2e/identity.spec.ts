import { test, expect } from './fixtures';
import { WorkbenchPage } from './pages/WorkbenchPage';

/**
 * Issue 9.4 in the UI: the window starts locked, acting as a reviewer needs their passphrase, and
 * each browser tab has its own reviewer (before, choosing a reviewer in one tab changed who acted
 * in every tab).
 */
test('the window starts locked; a wrong passphrase is refused next to the form and unlocks nothing', async ({ page, workbench }) => {
  const app = new WorkbenchPage(page, workbench.host.url);
  await page.goto(workbench.host.url);
  await expect(page.getByTestId('unlock-panel')).toBeVisible();
  await expect(page.getByTestId('status-actor')).toHaveText('Locked: no reviewer unlocked in this window');
  await expect(page.getByTestId('case-claim-count')).toHaveText('—');
  await page.getByTestId('unlock-actor').selectOption('priya.s');
  await page.getByTestId('unlock-passphrase').fill('demo-jonas-2231');
  await page.getByTestId('unlock-submit').click();
  await expect(page.getByTestId('unlock-error')).toHaveText('actor:unlock refused: wrong passphrase for reviewer priya.s');
  await app.screenshot('identity-locked');
  await app.unlock('priya.s');
  await expect(page.getByTestId('case-claim-count')).not.toHaveText('—');
  await app.nav('cases');
  await page.getByTestId('lock-window').click();
  await expect(page.getByTestId('unlock-panel')).toBeVisible();
});

test('two tabs act as their own reviewers: what one tab does is signed by the one unlocked there', async ({ page, context, workbench }) => {
  const tab1 = new WorkbenchPage(page, workbench.host.url);
  await tab1.open('priya.s');
  const page2 = await context.newPage();
  const tab2 = new WorkbenchPage(page2, workbench.host.url);
  await tab2.open('jonas.w');
  // Tab 1 still acts as Priya, though Jonas was unlocked later in tab 2.
  await tab1.ok('claim:create', { claimId: 'cl-tab1', statement: 'made in tab 1', tenant: 'acme', classification: 'internal' });
  await tab2.ok('claim:create', { claimId: 'cl-tab2', statement: 'made in tab 2', tenant: 'acme', classification: 'internal' });
  const receipts = await tab1.ok('audit:list', { limit: 5 });
  const made = receipts.items.filter((r) => r.action === 'claim:create');
  expect(made.map((r) => [r.targets[0], r.actor])).toEqual(expect.arrayContaining([['claim:cl-tab1', 'priya.s'], ['claim:cl-tab2', 'jonas.w']]));
  await expect(page.getByTestId('status-actor')).toContainText('Priya');
  await expect(page2.getByTestId('status-actor')).toContainText('Jonas');
});
