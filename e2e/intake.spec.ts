import { expect, test } from './fixtures';
import { EvidenceViewPage } from './pages/ReviewViews';

const REPORT = [
  'Vendor report VR-2232 (2026-11-22).',
  'At 02:10 UTC the binary locker.exe renamed 18,204 files on HOST-FS02 to *.lockd and wrote a ransom note.',
  'No exfiltration was observed before encryption.',
].join('\n');

test('a case created in the UI is fed in the UI: reviewer, source and quoted span, evidence for and against, claim, bindings and status', async ({ app, page, workbench }) => {
  // A new, empty case: the creator is its admin.
  await page.getByTestId('new-case-path').fill(`${workbench.userDataDir}/cases/ir-2232.case.sqlite`);
  await page.getByTestId('new-case-name').fill('Ransomware on FS02 (IR-2232)');
  await page.getByTestId('new-case-actor').fill('lena.k');
  await page.getByTestId('new-case-display').fill('Lena Kowalski');
  await page.getByTestId('new-case-passphrase').fill('lena new case passphrase');
  await page.getByTestId('new-case-passphrase-repeat').fill('lena new case passphrase');
  await page.getByTestId('new-case-home-tenants').fill('acme');
  await page.getByTestId('new-case-home-ceiling').selectOption('confidential');
  await page.getByTestId('new-case-submit').click();
  await expect(page.getByTestId('case-claim-count')).toHaveText('0');

  await app.nav('intake');
  // A reviewer, with a field error first: the passphrase is too short.
  await page.getByTestId('intake-reviewer-id').fill('omar.h');
  await page.getByTestId('intake-reviewer-name').fill('Omar Haddad');
  await page.getByTestId('intake-reviewer-tenants').fill('acme');
  await page.getByTestId('intake-reviewer-passphrase').fill('short');
  await page.getByTestId('intake-reviewer-submit').click();
  await expect(page.getByTestId('intake-reviewer-passphrase-issue')).toContainText('at least 8 characters');
  await page.getByTestId('intake-reviewer-passphrase').fill('omar passphrase 2232');
  await page.getByTestId('intake-reviewer-submit').click();
  await expect(page.getByTestId('intake-reviewer-done')).toContainText('Omar Haddad (omar.h) added as analyst');

  // A source document, and a passage of it selected as evidence.
  await page.getByTestId('intake-source-title').fill('Vendor report VR-2232');
  await page.getByTestId('intake-source-content').fill(REPORT);
  await page.getByTestId('intake-source-submit').click();
  await expect(page.getByTestId('intake-source-done')).toContainText('stored');
  const passage = 'the binary locker.exe renamed 18,204 files on HOST-FS02';
  const start = REPORT.indexOf(passage);
  // What a mouse selection leaves behind: the textarea's selection, then a mouseup on it.
  await page.getByTestId('intake-source-text').evaluate((el, [s, e]) => {
    const t = el as unknown as { focus(): void; setSelectionRange(a: number, b: number): void };
    t.focus();
    t.setSelectionRange(s!, e!);
  }, [start, start + passage.length]);
  await page.getByTestId('intake-source-text').dispatchEvent('mouseup');
  await expect(page.getByTestId('intake-source-selection')).toContainText(`[${start}, ${start + passage.length})`);
  await page.getByTestId('intake-source-quote').click();
  await expect(page.getByTestId('intake-evidence-content')).toHaveValue(passage);

  // The evidence form says what was wrong, next to the field.
  await page.getByTestId('intake-evidence-id').fill('ev-vr-001');
  await page.getByTestId('intake-evidence-title').fill('VR-2232: locker.exe renamed files on HOST-FS02');
  await page.getByTestId('intake-evidence-kind').selectOption('vendor_report');
  await page.getByTestId('intake-evidence-source-type').fill('vendor_report');
  await page.getByTestId('intake-evidence-source-ref').fill('vendor:VR-2232');
  await page.getByTestId('intake-evidence-producer').fill('vendor-ir');
  await page.getByTestId('intake-evidence-source-version').fill('1');
  await page.getByTestId('intake-evidence-applies').fill('HOST-FS02');
  await page.getByTestId('intake-evidence-observed').fill('22 Nov 2026');
  await page.getByTestId('intake-evidence-submit').click();
  await expect(page.getByTestId('intake-evidence-observed-issue')).toBeVisible();
  await page.getByTestId('intake-evidence-observed-issue').scrollIntoViewIfNeeded();
  await app.screenshot('intake-field-error');
  await page.getByTestId('intake-evidence-observed').fill('2026-11-22T00:00:00Z');
  await page.getByTestId('intake-evidence-submit').click();
  await expect(page.getByTestId('intake-evidence-done')).toContainText('ev-vr-001@1 added as CANDIDATE');

  // Pasted evidence that says otherwise.
  await page.getByTestId('intake-evidence-id').fill('ev-edr-001');
  await page.getByTestId('intake-evidence-title').fill('EDR: no file writes by locker.exe on HOST-FS02');
  await page.getByTestId('intake-evidence-kind').selectOption('telemetry');
  await page.getByTestId('intake-evidence-content').fill('EDR timeline HOST-FS02 02:00-03:00 UTC: locker.exe not present; 0 rename events');
  await page.getByTestId('intake-evidence-source-type').fill('edr');
  await page.getByTestId('intake-evidence-source-ref').fill('mde:timeline:fs02');
  await page.getByTestId('intake-evidence-producer').fill('defender-for-endpoint');
  await page.getByTestId('intake-evidence-submit').click();
  await expect(page.getByTestId('intake-evidence-done')).toContainText('ev-edr-001@1 added as CANDIDATE');

  await page.getByTestId('intake-claim-statement').fill('HOST-FS02 files were encrypted by locker.exe on 2026-11-22');
  await page.getByTestId('intake-claim-id').fill('cl-fs02-encrypt');
  await page.getByTestId('intake-claim-submit').click();
  await expect(page.getByTestId('intake-claim-done')).toContainText('cl-fs02-encrypt created: INSUFFICIENT');

  // The pickers offer matches from the store as one types (claim:page, evidence:list), never the whole case.
  await page.getByTestId('intake-bind-claim').fill('encrypted by locker');
  await expect(page.getByTestId('intake-bind-claim-options').locator('option[value="cl-fs02-encrypt"]')).toHaveCount(1);
  await page.getByTestId('intake-bind-claim').fill('cl-fs02-encrypt');
  await page.getByTestId('intake-bind-revision').fill('ev-vr-001');
  await expect(page.getByTestId('intake-bind-revision-options').locator('option[value="ev-vr-001@1"]')).toHaveCount(1);
  await page.getByTestId('intake-bind-revision').fill('ev-vr-001@1');
  await page.getByTestId('intake-bind-submit').click();
  await expect(page.getByTestId('intake-bind-done')).toContainText('ev-vr-001@1 bound to cl-fs02-encrypt as FULL_SUPPORT/SUPPORTING');
  await page.getByTestId('intake-bind-revision').fill('ev-edr-001@1');
  await page.getByTestId('intake-bind-relation').selectOption('REFUTES');
  await page.getByTestId('intake-bind-submit').click();
  await expect(page.getByTestId('intake-bind-done')).toContainText('as REFUTES/SUPPORTING');
  await page.getByTestId('intake-bind-done').scrollIntoViewIfNeeded();
  await app.screenshot('intake-bound');

  // Candidates support nothing until validated: validating both sides makes the claim MIXED.
  await expect(page.getByTestId('intake-bind-status')).toContainText('cl-fs02-encrypt is now INSUFFICIENT');
  const evidence = new EvidenceViewPage(app);
  await evidence.open();
  for (const revisionId of ['ev-vr-001@1', 'ev-edr-001@1']) {
    await evidence.select(revisionId);
    await evidence.transition.move('VALIDATED', 'checked against the source', 'ticket:IR-2232');
    await expect(evidence.transition.done).toContainText('CANDIDATE → VALIDATED');
  }
  await app.nav('review');
  await expect(page.getByTestId('review-entry-cl-fs02-encrypt')).toContainText('MIXED');

  // A correction is a new revision of the same lineage: the old one stays, superseded.
  await app.nav('intake');
  await page.getByTestId('intake-revise-of').fill('ev-edr-001@1');
  await page.getByTestId('intake-revise-load').click();
  await expect(page.getByTestId('intake-revise-content')).toHaveValue(/locker\.exe not present/);
  await page.getByTestId('intake-revise-content').fill('EDR timeline HOST-FS02 02:00-03:00 UTC: sensor offline 02:05-02:40; locker.exe not seen while online');
  await page.getByTestId('intake-revise-submit').click();
  await expect(page.getByTestId('intake-revise-reason-issue')).toBeVisible();
  await page.getByTestId('intake-revise-reason').fill('the first export hid a sensor gap');
  await page.getByTestId('intake-revise-submit').click();
  await expect(page.getByTestId('intake-revise-done')).toContainText('ev-edr-001@2 recorded (CANDIDATE)');
  await page.getByTestId('intake-revise-done').scrollIntoViewIfNeeded();
  await app.screenshot('intake-revised');
  await app.nav('cases');
  await expect(page.getByTestId('case-claim-count')).toHaveText('1');
  await expect(page.getByTestId('case-evidence-count')).toHaveText('3');
});

test('an evidence revision dragged onto a claim in the graph is bound as the dialog says, and unbound again from the claim with a reason', async ({ app, page }) => {
  await app.nav('graph');
  await page.getByTestId('graph-fit-all').click();
  await page.waitForTimeout(400);
  const from = page.getByTestId('graph-node-rev-ev-edr-002@1').locator('.react-flow__handle');
  const to = page.getByTestId('graph-node-claim-cl-takeover').locator('.react-flow__handle');
  await expect(from).toBeVisible();
  await expect(to).toBeVisible();
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId('graph-bind-dialog')).toContainText('Bind ev-edr-002@1 to cl-takeover');
  await page.getByTestId('graph-bind-relation').selectOption('CONTEXT_ONLY');
  await page.getByTestId('graph-bind-role').selectOption('CONTEXT');
  await page.getByTestId('graph-bind-rationale').fill('the transfer followed the takeover');
  await app.screenshot('graph-bind-dialog');
  await page.getByTestId('graph-bind-submit').click();
  await expect(page.getByTestId('graph-bind-dialog')).toHaveCount(0);

  await page.getByTestId('graph-node-claim-cl-takeover').click();
  const detail = page.getByTestId('graph-claim-detail-bindings');
  await expect(detail).toContainText('ev-edr-002@1');
  await page.getByTestId('graph-claim-detail-unbind-ev-edr-002@1').click();
  await page.getByTestId('graph-claim-detail-unbind-ev-edr-002@1-reason').fill('bound by mistake: a different session');
  await app.screenshot('graph-unbind');
  await page.getByTestId('graph-claim-detail-unbind-ev-edr-002@1-confirm').click();
  await expect(detail).not.toContainText('ev-edr-002@1');
  await app.nav('audit');
  await expect(page.getByTestId('view-audit')).toContainText('claim:unbind');

  // From the evidence's side: its detail lists the claims binding it, binds to another and unbinds.
  const evidence = new EvidenceViewPage(app);
  await evidence.open();
  await evidence.select('ev-edr-002@1');
  const bound = page.getByTestId('evidence-detail-bound');
  await expect(bound).toContainText('cl-exfil');
  await page.getByTestId('evidence-detail-bind-claim').fill('cl-powershell');
  await page.getByTestId('evidence-detail-bind-relation').selectOption('CONTEXT_ONLY');
  await page.getByTestId('evidence-detail-bind-role').selectOption('CONTEXT');
  await page.getByTestId('evidence-detail-bind-submit').click();
  await expect(bound).toContainText('cl-powershell');
  await bound.scrollIntoViewIfNeeded();
  await app.screenshot('evidence-bound-to');
  await page.getByTestId('evidence-detail-unbind-cl-powershell').click();
  await page.getByTestId('evidence-detail-unbind-cl-powershell-reason').fill('context only by coincidence of time');
  await page.getByTestId('evidence-detail-unbind-cl-powershell-confirm').click();
  await expect(bound).not.toContainText('cl-powershell');
  await expect(bound).toContainText('cl-exfil');
});
