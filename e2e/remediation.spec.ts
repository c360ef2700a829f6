import { tableDigest } from '../electron/core/store/digest';
import { expect, test } from './fixtures';

/**
 * Issue 5 end to end, against the real store through the loopback host (no background worker in
 * the fixture's host, so convergence happens only when the test presses "Run worker now").
 */
test('revoke → pending revalidation → worker → remediation → retained on a same-lineage successor', async ({ app, page, workbench }) => {
  // cl-takeover gets an approved decision: proposed by priya.s, approved by lena.k (neither wrote it).
  await app.actAs('priya.s');
  const proposal = await app.ok('decision:propose', { claimId: 'cl-takeover', verdict: 'SUPPORTED', rationale: 'Tor sign-in after a password spray, owner on leave' });
  await app.actAs('lena.k');
  await app.ok('decision:approve', { decisionId: proposal.decisionId, fingerprint: proposal.fingerprint });

  // priya.s revokes the REQUIRED sign-in record the decision rests on.
  await app.actAs('priya.s');
  await app.ok('evidence:transition', { revisionId: 'ev-auth-001@1', to: 'REVOKED', reason: 'export came from the staging tenant, not production' });
  const pending = await app.ok('claim:get', { claimId: 'cl-takeover' });
  expect(pending).toMatchObject({ projection: 'PENDING_REVALIDATION', pendingRevalidation: true });

  await app.nav('remediations');
  await expect(page.getByTestId('revocation-pending-claims')).toContainText('1');
  await expect(page.getByTestId('projection-claim-cl-takeover')).toContainText('PENDING REVALIDATION');
  await expect(page.getByTestId('revocation-delay-ev-auth-001@1')).toHaveText('converging…');
  // The demo's own open remediation (cl-rdp) is there; none for cl-takeover until the worker runs.
  await expect(page.getByTestId('remediation-entry-cl-takeover')).toHaveCount(0);
  await app.screenshot('remediations-pending');

  // The corrected export arrives as revision 2 of the same lineage and is validated.
  await app.ok('evidence:revise', {
    supersedes: 'ev-auth-001@1',
    content: '2026-11-20T03:12:44Z signin user=svc-backup@acme.example app="Azure Portal" ip=185.220.101.4 result=success mfa=none (production export)',
    reason: 'production tenant export replaces the staging one',
  });
  await app.ok('evidence:transition', { revisionId: 'ev-auth-001@2', to: 'VALIDATED', reason: 'validation checklist passed' });

  await page.getByTestId('revocation-run-worker').click();
  await expect(page.getByTestId('remediation-entry-cl-takeover')).toBeVisible();
  await page.getByTestId('remediation-entry-cl-takeover').click();
  await expect(page.getByTestId('revocation-open-jobs')).toContainText('0');
  await expect(page.getByTestId('revocation-converged-ev-auth-001@1')).toContainText('1/1');
  const detail = page.getByTestId('remediation-detail');
  await expect(detail.getByTestId('remediation-projection')).toHaveText('BLOCKED');
  await expect(detail.getByTestId('remediation-cause-ev-auth-001@1')).toContainText('was revoked by priya.s');
  await expect(detail.getByTestId('remediation-cause-ev-auth-001@1')).toContainText('export came from the staging tenant');
  await expect(detail.getByTestId('remediation-affected-ev-auth-001@1')).toContainText('REQUIRED');
  await detail.evaluate((el) => el.scrollIntoView());
  await app.screenshot('remediations-detail');
  // Four eyes: the reviewer who revoked the evidence is told, and refused by the service, verbatim.
  await expect(detail.getByTestId('remediation-cannot-resolve')).toContainText('cannot resolve the remediation (four eyes)');
  await expect(detail.getByTestId('remediation-successor-ev-auth-001@1')).toHaveValue('ev-auth-001@2');
  await detail.getByTestId('remediation-reason').fill('same sign-in in the production export');
  const before = tableDigest(workbench.casePath);
  await detail.getByTestId('remediation-submit').click();
  await expect(detail.getByTestId('remediation-error-code')).toHaveText('FORBIDDEN');
  await expect(detail.getByTestId('remediation-error-message')).toContainText('priya.s took the evidence behind it out of normal flows');
  expect(tableDigest(workbench.casePath)).toBe(before);
  await app.screenshot('remediations-open');

  // lena.k, who owns the decision, retains it on the successor.
  await app.actAs('lena.k');
  await app.nav('remediations');
  await expect(detail.getByTestId('remediation-cannot-resolve')).toHaveCount(0);
  await expect(detail.getByTestId('remediation-successor-ev-auth-001@1')).toHaveValue('ev-auth-001@2');
  await detail.getByTestId('remediation-reason').fill('the production export shows the same Tor sign-in');
  await detail.getByTestId('remediation-submit').click();
  await expect(detail.getByTestId('remediation-status')).toHaveText('RESOLVED: RETAINED');
  await expect(detail.getByTestId('remediation-projection')).toHaveText('ELIGIBLE');
  await expect(detail.getByTestId('remediation-binding-2-ev-auth-001@2')).toBeVisible();
  await expect(detail.getByTestId('remediation-binding-1-ev-auth-001@1')).toHaveAttribute('data-historical', 'true');
  await expect(detail.getByTestId('remediation-resolution')).toContainText('lena.k');
  await app.screenshot('remediations-resolved');

  const claim = await app.ok('claim:get', { claimId: 'cl-takeover' });
  expect(claim).toMatchObject({ generation: 2, projection: 'ELIGIBLE', pendingRevalidation: false, statement: pending.statement });
  const verify = await app.ok('audit:verify', {});
  expect(verify.ok).toBe(true);
});

test('a successor from another lineage is refused with the reason and nothing is written', async ({ app, workbench }) => {
  await app.actAs('priya.s');
  const proposal = await app.ok('decision:propose', { claimId: 'cl-takeover', verdict: 'SUPPORTED', rationale: 'r' });
  await app.actAs('lena.k');
  await app.ok('decision:approve', { decisionId: proposal.decisionId, fingerprint: proposal.fingerprint });
  await app.actAs('priya.s');
  await app.ok('evidence:transition', { revisionId: 'ev-auth-001@1', to: 'REVOKED', reason: 'staging export' });
  await app.ok('revocation:runWorker', {});
  await app.actAs('lena.k');
  const [remediation] = (await app.ok('remediation:list', {})).items;
  const before = tableDigest(workbench.casePath);
  const answer = await app.invokeRaw('remediation:retainCurrentRevision', {
    remediationId: remediation!.remediationId,
    successors: ['ev-auth-002@1'],
    expectedProjectionVersion: remediation!.projectionVersion,
    reason: 'another sign-in record',
  });
  if (answer.ok) throw new Error('remediation:retainCurrentRevision accepted a successor from another lineage');
  expect(answer.error.code).toBe('CONFLICT');
  expect(answer.error.message).toContain('a revision from a different lineage cannot inherit the review');
  expect(tableDigest(workbench.casePath)).toBe(before);
});

test('withdrawing a decision says what happens and asks again; cancelling writes nothing, confirming withdraws it', async ({ app, page, workbench }) => {
  // The demo opens with cl-rdp's decision in remediation; lena.k may resolve it.
  await app.actAs('lena.k');
  await app.nav('remediations');
  await page.getByTestId('remediation-entry-cl-rdp').click();
  const detail = page.getByTestId('remediation-detail');
  await detail.getByTestId('remediation-mode-withdraw').check();
  await detail.getByTestId('remediation-reason').fill('the RDP finding no longer stands without the hive');
  const before = tableDigest(workbench.casePath);
  await detail.getByTestId('remediation-submit').click();
  await expect(detail.getByTestId('remediation-submit-consequence')).toContainText('takes decision');
  await expect(detail.getByTestId('remediation-submit-consequence')).toContainText('undecided again');
  await app.screenshot('remediation-withdraw-confirm');
  await detail.getByTestId('remediation-submit-cancel').click();
  expect(tableDigest(workbench.casePath)).toBe(before);
  await detail.getByTestId('remediation-submit').click();
  await detail.getByTestId('remediation-submit-confirm').click();
  await expect(detail.getByTestId('remediation-status')).toHaveText('RESOLVED: WITHDRAWN');
});
