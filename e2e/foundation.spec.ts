import { tableDigest } from '../electron/core/store/digest';
import type { RequestOf } from '../shared/ipc/contract';
import { expect, test } from './fixtures';

test('opens the demo case and shows its name, claim count and transport', async ({ app, page }) => {
  await expect(page.getByTestId('case-name')).toHaveText('Account takeover: svc-backup (IR-2231)');
  await expect(page.getByTestId('case-claim-count')).toHaveText('7');
  await expect(page.getByTestId('case-home-scope')).toHaveText('acme, up to confidential');
  await expect(page.getByTestId('status-case')).toContainText('Account takeover: svc-backup');
  await expect(page.getByTestId('status-transport')).toHaveText('Browser mode (loopback 127.0.0.1)');
  await expect(page.getByTestId('status-chain')).toContainText('verified');
  await app.screenshot('cases');
});

test('a malformed request through the bridge is refused with VALIDATION and the zod path, writing nothing', async ({ app, workbench }) => {
  const before = tableDigest(workbench.casePath);
  // Malformed on purpose (no such state, empty reason): the types would refuse it, the handler must too.
  const malformed = { revisionId: 'ev-auth-001@1', to: 'CONFIRMED', reason: '' } as unknown as RequestOf<'evidence:transition'>;
  const answer = await app.invokeRaw('evidence:transition', malformed);
  if (answer.ok) throw new Error('evidence:transition accepted a malformed request');
  expect(answer.error.code).toBe('VALIDATION');
  const paths = answer.error.issues?.map((i) => i.path.join('.'));
  expect(paths).toEqual(expect.arrayContaining(['to', 'reason']));
  expect(tableDigest(workbench.casePath)).toBe(before);
});

test('opening a file that is not a case shows a clear error and keeps the current case', async ({ app, page }) => {
  await page.getByTestId('open-path').fill('/etc/hostname');
  await page.getByTestId('open-submit').click();
  await expect(page.getByTestId('case-error')).toContainText('it is not a SQLite database');
  await expect(page.getByTestId('status-case')).toContainText('Account takeover');
  await app.screenshot('cases-open-error');
});

test('switching the acting reviewer hides evidence above their clearance', async ({ app, page }) => {
  const all = Number(await page.getByTestId('case-evidence-count').textContent());
  await app.actAs('omar.h');
  await expect(page.getByTestId('status-actor')).toContainText('Omar Haddad');
  await expect(page.getByTestId('case-evidence-count')).toHaveText(String(all - 1));
  await app.nav('audit');
  await expect(page.getByTestId('audit-status')).toContainText('Verified');
  await app.screenshot('audit');
});

test('creates a new case from the Cases view and can go back to the demo from the recent list', async ({ app, page, workbench }) => {
  const path = `${workbench.userDataDir}/cases/ir-2232.case.sqlite`;
  await page.getByTestId('new-case-path').fill(path);
  await page.getByTestId('new-case-name').fill('Ransomware on FS02 (IR-2232)');
  await page.getByTestId('new-case-actor').fill('lena.k');
  await page.getByTestId('new-case-display').fill('Lena Kowalski');
  await page.getByTestId('new-case-passphrase').fill('lena new case passphrase');
  await page.getByTestId('new-case-passphrase-repeat').fill('lena new case passphrase');
  await page.getByTestId('new-case-home-tenants').fill('acme, acme-emea');
  await page.getByTestId('new-case-home-ceiling').selectOption('internal');
  await page.getByTestId('new-case-submit').click();
  await expect(page.getByTestId('case-name')).toHaveText('Ransomware on FS02 (IR-2232)');
  await expect(page.getByTestId('case-home-scope')).toHaveText('acme, acme-emea, up to internal');
  await expect(page.getByTestId('case-claim-count')).toHaveText('0');
  await expect(page.getByTestId('status-chain')).toContainText('verified');
  await app.screenshot('cases-new');
  await page.getByRole('button', { name: 'Account takeover: svc-backup (IR-2231)' }).click();
  await expect(page.getByTestId('case-name')).toHaveText('Account takeover: svc-backup (IR-2231)');
  // Another case is another opening: the window is locked until someone unlocks it for this one.
  await expect(page.getByTestId('unlock-panel')).toBeVisible();
  await app.unlock('lena.k');
});
