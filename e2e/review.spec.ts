import { expect, test } from './fixtures';
import { AuditViewPage, GatePanelPage, ReviewViewPage, type VoteInput } from './pages/DecisionPages';
import { GraphViewPage } from './pages/ReviewViews';
import type { WorkbenchPage } from './pages/WorkbenchPage';

/**
 * Issue 4 in the UI, end to end against the real store through the loopback host: decisions with
 * fingerprints and four eyes, staleness, quorum review, the signed audit chain and the completion gate.
 */
/** The decision id of the claim's open proposal, as the service lists it. */
async function openProposalOf(app: WorkbenchPage, claimId: string): Promise<string> {
  const review = await app.ok('review:get', { claimId });
  expect(review.openProposal, `no open proposal on ${claimId}`).not.toBeNull();
  return review.openProposal!.decisionId;
}

const FULL_CHECKLIST = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };

test.use({ viewport: { width: 1440, height: 900 } });

test('four eyes and fingerprints: self-approval and author approval are refused, another reviewer’s approval is current until evidence is bound', async ({ app }) => {
  const review = new ReviewViewPage(app);
  // A claim written by a reviewer, so the author rule is exercised by someone allowed to approve at all.
  await app.actAs('priya.s');
  await app.ok('claim:create', {
    claimId: 'cl-lateral',
    statement: 'The attacker moved from HOST-FS01 to the backup NAS over SMB',
    tenant: 'acme',
    classification: 'internal',
  });
  await app.ok('claim:bind', { claimId: 'cl-lateral', revisionId: 'ev-edr-002@1', relation: 'PARTIAL_SUPPORT', role: 'REQUIRED', rationale: 'rclone ran on HOST-FS01' });

  await app.actAs('jonas.w');
  await review.open('cl-lateral');
  await expect(review.decisionState).toHaveText('UNDECIDED');
  await review.propose('NEEDS_MORE_EVIDENCE', 'Only the EDR event; pull the NAS SMB audit log before deciding', 'kql:smb-to-nas-2026-11-20');
  const decisionId = await openProposalOf(app, 'cl-lateral');
  await expect(review.part(decisionId, 'status')).toHaveText('PROPOSED');
  // The fingerprint covers the exact revision and the computation the verdict relies on.
  await expect(review.part(decisionId, 'refs')).toHaveText(/ev-edr-002@1\s*kql:smb-to-nas-2026-11-20/);
  await expect(review.part(decisionId, 'currency')).toHaveText('CURRENT');
  const shown = await review.part(decisionId, 'fingerprint').getAttribute('data-value');
  expect(shown).toMatch(/^[0-9a-f]{64}$/);
  await expect(review.part(decisionId, 'fingerprint')).toHaveText(`${shown!.slice(0, 12)}…`);

  // The proposer cannot approve their own proposal.
  await review.act(decisionId, 'approve');
  await expect(review.part(decisionId, 'error-code')).toHaveText('FORBIDDEN');
  await expect(review.part(decisionId, 'error-message')).toContainText('jonas.w proposed');
  await expect(review.part(decisionId, 'error-message')).toContainText('(four eyes)');

  // The claim's author cannot approve a decision on it.
  await app.actAs('priya.s');
  await review.open('cl-lateral');
  await review.act(decisionId, 'approve');
  await expect(review.part(decisionId, 'error-code')).toHaveText('FORBIDDEN');
  await expect(review.part(decisionId, 'error-message')).toContainText('priya.s wrote claim cl-lateral and cannot approve a decision on it (four eyes)');
  await app.screenshot('review-four-eyes');

  // Another reviewer approves exactly the fingerprint on screen.
  await app.actAs('lena.k');
  await review.open('cl-lateral');
  await review.act(decisionId, 'approve', 'SMB audit requested; the verdict records that it is open');
  await expect(review.part(decisionId, 'status')).toHaveText('APPROVED');
  await expect(review.part(decisionId, 'currency')).toHaveText('CURRENT');
  await expect(review.decision(decisionId)).toContainText('approved by lena.k');
  const approved = await app.ok('decision:get', { decisionId });
  expect(approved).toMatchObject({ status: 'APPROVED', decidedBy: 'lena.k', fingerprint: shown });

  // New evidence bound to the claim: the approval no longer matches it.
  await app.ok('claim:bind', { claimId: 'cl-lateral', revisionId: 'ev-fw-001@1', relation: 'CONTEXT_ONLY', role: 'CONTEXT', rationale: 'firewall shows no SMB to the NAS' });
  await review.reload();
  await expect(review.part(decisionId, 'currency')).toHaveText('STALE');
  await expect(review.part(decisionId, 'changes')).toContainText('revision ev-fw-001@1 was bound');
  await expect(review.entry('cl-lateral')).toHaveAttribute('data-decision-state', 'STALE');
  await expect(review.decisionMessage).toContainText('is stale: revision ev-fw-001@1 was bound');
  await app.screenshot('review-stale');
});

test('a proposal reviewed before the claim moved is refused as stale (CONFLICT) and then shown STALE', async ({ app }) => {
  const review = new ReviewViewPage(app);
  await app.actAs('priya.s');
  await review.open('cl-phishing');
  await review.propose('REFUTED', 'No zip attachment reached the mailbox; the note is an unverified suspicion');
  const decisionId = await openProposalOf(app, 'cl-phishing');

  await app.actAs('jonas.w');
  await review.open('cl-phishing');
  await expect(review.part(decisionId, 'currency')).toHaveText('CURRENT');
  // Someone binds evidence while jonas.w is reading: his screen still shows the old fingerprint.
  await app.ok('claim:bind', { claimId: 'cl-phishing', revisionId: 'ev-note-002@1', relation: 'CONTEXT_ONLY', role: 'CONTEXT', rationale: 'rclone config, unrelated to mail' });
  await review.act(decisionId, 'approve');
  await expect(review.part(decisionId, 'error-code')).toHaveText('CONFLICT');
  await expect(review.part(decisionId, 'error-message')).toContainText(`${decisionId} is stale: revision ev-note-002@1 was bound`);
  await expect(review.part(decisionId, 'currency')).toHaveText('STALE');
  await app.screenshot('review-stale-conflict');
});

test('quorum review: three votes through the UI decide the outcome; the author’s vote is refused', async ({ app, page }) => {
  const review = new ReviewViewPage(app);
  await app.actAs('omar.h');
  await review.open('cl-exfil');
  await expect(page.getByTestId('review-quorum-tier')).toHaveText('UNVERIFIED');
  await expect(page.getByTestId('review-quorum-kill')).toContainText('TOO_FEW_VALID_VOTES');
  await review.vote({ checklist: FULL_CHECKLIST, refuted: false, reason: 'I wrote it' });
  await expect(page.getByTestId('vote-error-code')).toHaveText('FORBIDDEN');

  const votes: [string, VoteInput][] = [
    ['priya.s', { checklist: FULL_CHECKLIST, refuted: false, reason: 'EDR bytes_out and the firewall agree within 1 s and 0.5 %' }],
    [
      'jonas.w',
      {
        checklist: { ...FULL_CHECKLIST, contradictingEvidence: true, sourceQualityMatchesClaim: false },
        refuted: true,
        reason: 'DLP saw nothing and the destination rests on one vendor report and its copy',
        killReasons: ['SINGLE_SOURCE', 'CONTRADICTING_EVIDENCE'],
      },
    ],
    ['lena.k', { checklist: FULL_CHECKLIST, refuted: false, reason: 'DLP had TLS inspection off; two independent network sources carry it' }],
  ];
  for (const [reviewer, vote] of votes) {
    await app.actAs(reviewer);
    await review.open('cl-exfil');
    // The form votes on the basis on screen, which is the claim's current one.
    const { basis } = await app.ok('review:get', { claimId: 'cl-exfil' });
    await expect(page.getByTestId('vote-basis')).toHaveAttribute('data-value', basis);
    await review.vote(vote);
    await expect(page.getByTestId('vote-done')).toContainText('it counts');
    await expect(review.quorumVote(reviewer)).toContainText(vote.refuted ? 'REFUTED' : 'NOT REFUTED');
  }
  await expect(page.getByTestId('review-quorum-tier')).toHaveText('VERIFIED');
  await expect(page.getByTestId('review-quorum-valid')).toContainText('3');
  await expect(page.getByTestId('review-quorum-refute')).toContainText('1');
  await expect(review.quorumVote('jonas.w')).toContainText('SINGLE_SOURCE');
  await expect(review.entry('cl-exfil')).toContainText('VERIFIED');
  await page.getByTestId('review-quorum').evaluate((el) => (el as unknown as { scrollIntoView: (o: unknown) => void }).scrollIntoView({ block: 'start' }));
  await app.screenshot('review-quorum');
});

test('audit view: signed chain verified, head copied and checked, a forged head and a malformed one reported', async ({ app, page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const audit = new AuditViewPage(app);
  await audit.open();
  await expect(audit.status).toContainText('Verified');
  const head = await app.ok('audit:head', {});
  // The window verified the case in full when it opened, so this one is routine: nothing new since.
  await expect(page.getByTestId('audit-scope')).toContainText(`nothing was added since this machine verified the chain through seq ${head.seq}`);
  await page.getByTestId('audit-verify-full').click();
  await expect(page.getByTestId('audit-scope')).toContainText('Full: the whole chain and every row were checked.');
  await expect(audit.status).toContainText(`${head.seq} Ed25519 signatures checked`);
  await expect(audit.head).toHaveText(head.head);
  await page.getByTestId('audit-head-copy').click();
  await expect(page.getByTestId('audit-head-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText: () => Promise<string> } } }).navigator.clipboard.readText())).toBe(head.head);
  // The newest receipt of the demo: priya.s recorded cl-vpn-cve UNRESOLVED and signed it with her key.
  await expect(audit.receipt(head.seq)).toContainText('claim:markUnresolved');
  await expect(page.getByTestId(`receipt-signer-${head.seq}`)).toContainText('priya.s');
  await expect(page.getByTestId('audit-key-priya.s')).toBeVisible();

  // Something happens after the head was printed: the chain still reaches it, one receipt later.
  await app.actAs('priya.s');
  await app.ok('claim:markUnresolved', { claimId: 'cl-persistence', reason: 'the task XML was never pulled; HOST-FS01 was reimaged' });
  await audit.open();
  await audit.verifyAgainst(head.head);
  await expect(audit.headResult).toHaveAttribute('data-ok', 'true');
  await expect(audit.headResult).toContainText('1 receipt was appended since');

  // Same seq, another hash: a rewritten chain.
  const forged = `erwb-head:${head.seq}:${'0'.repeat(64)}`;
  await audit.verifyAgainst(forged);
  await expect(audit.headResult).toHaveAttribute('data-ok', 'false');
  await expect(audit.headResult).toContainText(`head at seq ${head.seq}`);
  await audit.verifyAgainst('erwb-head:latest');
  await expect(page.getByTestId('audit-head-error-code')).toHaveText('VALIDATION');
  await expect(page.getByTestId('audit-head-error-issues')).toContainText('expectedHead');

  // A reviewer with a lower clearance sees every receipt's place in the chain, not its content.
  await app.actAs('jonas.w');
  await audit.open();
  await expect(page.locator('[data-testid^="receipt-withheld-"]').first()).toBeVisible();
  await audit.receipt(head.seq).getByRole('button', { name: 'details' }).click();
  await expect(page.getByTestId(`receipt-detail-${head.seq}`)).toContainText('signature');
  await page.getByTestId('audit-head-panel').scrollIntoViewIfNeeded();
  await app.screenshot('audit-chain');
});

test('completion gate of a case with hundreds of blockers: counts by kind, the first 200 rows, and more on request', async ({ app, page }) => {
  const gate = new GatePanelPage(app);
  for (let i = 0; i < 230; i++) {
    await app.ok('claim:create', { claimId: `cl-bulk-${String(i).padStart(3, '0')}`, statement: `host ${i} beaconed to the C2`, tenant: 'acme', classification: 'internal' });
  }
  // Locking and unlocking the window reads the case again.
  await app.actAs('lena.k');
  await gate.open();
  // The gate answers its counts and its first page; the rest is read a page at a time.
  const first = await app.ok('case:gate', {});
  const total = first.total;
  expect(first.blockers).toHaveLength(200);
  expect(total).toBeGreaterThan(230);
  await expect(page.getByTestId('gate-blockers-counts')).toContainText(/undecided: \d+/);
  await expect(gate.blockers()).toHaveCount(200);
  await page.getByTestId('gate-blockers-more').scrollIntoViewIfNeeded();
  await app.screenshot('gate-many-blockers');
  await page.getByTestId('gate-blockers-more').click();
  await expect(gate.blockers()).toHaveCount(Math.min(400, total));
});

test('completion gate: a reviewer may not finalize; the admin gets DRAFT with blockers, then FINAL once nothing blocks', async ({ app, page }) => {
  const gate = new GatePanelPage(app);
  await app.actAs('priya.s');
  await gate.open();
  await expect(page.getByTestId('gate-state')).toHaveText('DRAFT');
  await gate.finalize();
  await expect(page.getByTestId('gate-finalize-error-code')).toHaveText('FORBIDDEN');
  await expect(page.getByTestId('gate-finalize-error-message')).toContainText('needs the role admin');

  await app.actAs('lena.k');
  await gate.finalize();
  await expect(gate.result).toHaveAttribute('data-final', 'false');
  await expect(gate.result).toContainText('DRAFT');
  await expect(gate.blockers().filter({ hasText: 'claim:cl-takeover' }).first()).toHaveAttribute('data-kind', 'undecided');
  await expect(gate.blockers().filter({ hasText: 'ev-dlp-001@1' })).toHaveAttribute('data-kind', 'dispute');
  await expect(page.getByTestId('status-gate')).toContainText('DRAFT');
  await app.screenshot('gate-draft');

  // A blocker links to the claim's review.
  await page.getByTestId('gate-blockers-open-cl-takeover').first().click();
  await expect(page.getByTestId('review-claim-cl-takeover')).toBeVisible();

  // Settle everything through the bridge: the dispute, each claim, the revocation work.
  await app.actAs('priya.s');
  await app.ok('evidence:transition', { revisionId: 'ev-dlp-001@1', to: 'REVOKED', reason: 'DLP was blind: TLS inspection was off on 2026-11-20' });
  await app.ok('revocation:runWorker', {});
  for (const claimId of ['cl-powershell', 'cl-persistence']) {
    await app.ok('claim:markUnresolved', { claimId, reason: 'cannot be established from the evidence kept' });
  }
  // cl-exfil requires a quorum of 3: UNRESOLVED needs the quorum to have looked and not decided.
  const refused = await app.invokeRaw('claim:markUnresolved', { claimId: 'cl-exfil', reason: 'one reviewer alone' });
  expect(refused.ok).toBe(false);
  const { basis } = await app.ok('review:get', { claimId: 'cl-exfil' });
  const checklist = { supportedByQuote: true, contradictingEvidence: true, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
  for (const reviewer of ['priya.s', 'jonas.w', 'lena.k']) {
    await app.actAs(reviewer);
    await app.ok('review:vote', { claimId: 'cl-exfil', basis, refuted: null, checklist, reason: 'the DLP gap leaves the volume unproven; abstaining' });
  }
  await app.ok('claim:markUnresolved', { claimId: 'cl-exfil', reason: 'the quorum could not decide from the evidence kept' });
  await app.actAs('priya.s');
  const proposals = [
    await app.ok('decision:propose', { claimId: 'cl-takeover', verdict: 'SUPPORTED', rationale: 'Tor sign-in after a spray, owner on leave' }),
    await app.ok('decision:propose', { claimId: 'cl-phishing', verdict: 'REFUTED', rationale: 'no zip reached the mailbox' }),
  ];
  await app.actAs('lena.k');
  for (const p of proposals) await app.ok('decision:approve', { decisionId: p.decisionId, fingerprint: p.fingerprint });
  // The demo opens with cl-rdp's decision in remediation: its owner retains it on the re-parse.
  const open = await app.ok('remediation:list', { status: 'OPEN' });
  expect(open.items).toHaveLength(1);
  await app.ok('remediation:retainCurrentRevision', {
    remediationId: open.items[0]!.remediationId,
    successors: ['ev-forensic-002@2'],
    expectedProjectionVersion: open.items[0]!.projectionVersion,
    reason: 'the re-parsed hive shows the same MRU entry for HOST-FS01',
  });
  // A reload keeps the place the window was at (its hash route); the gate is on the Cases view.
  await page.reload();
  await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
  await app.nav('cases');
  await expect(page.getByTestId('gate-summary')).toContainText('Nothing blocks finalizing');

  await gate.finalize();
  await expect(gate.result).toHaveAttribute('data-final', 'true');
  const certified = await page.getByTestId('gate-certified-head').textContent();
  expect(certified).toMatch(/^erwb-head:\d+:[0-9a-f]{64}$/);
  await expect(page.getByTestId('gate-state')).toHaveText('FINAL');
  await expect(page.getByTestId('status-gate')).toHaveText('FINAL');
  await app.screenshot('gate-final');

  // The certified head verifies on the Audit view, with the finalize receipt after it.
  const audit = new AuditViewPage(app);
  await audit.open();
  await audit.verifyAgainst(certified!);
  await expect(audit.headResult).toContainText('1 receipt was appended since');

  // FINAL is a lock: a change is refused with the reason, until an admin reopens the case.
  const late = await app.invokeRaw('claim:create', { claimId: 'cl-late', statement: 'too late', tenant: 'acme', classification: 'internal' });
  expect(late).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining('the case is FINAL') } });
  await gate.open();
  await expect(page.getByTestId('gate-lock')).toContainText('Locked');
  await page.getByTestId('gate-reopen').click();
  await expect(page.getByTestId('gate-reopen-consequence')).toContainText('DRAFT again');
  await app.screenshot('gate-locked-reopen');
  await page.getByTestId('gate-reopen-confirm').click();
  await expect(page.getByTestId('gate-reopen-error')).toContainText('reason');
  await page.getByTestId('gate-reopen-reason').fill('the ISP delivered NetFlow for 03:00-04:00; re-review the exfil volume');
  await page.getByTestId('gate-reopen').click();
  await page.getByTestId('gate-reopen-confirm').click();
  await expect(page.getByTestId('gate-state')).toHaveText('DRAFT');
  await expect(page.getByTestId('gate-last')).toContainText('it was reopened since');
  await app.ok('claim:create', { claimId: 'cl-late', statement: 'now accepted', tenant: 'acme', classification: 'internal' });
});

test('graph: a claim whose decided evidence is revoked shows PENDING REVALIDATION and its decision state', async ({ app, page }) => {
  await app.actAs('priya.s');
  const proposal = await app.ok('decision:propose', { claimId: 'cl-takeover', verdict: 'SUPPORTED', rationale: 'Tor sign-in after a spray, owner on leave' });
  await app.actAs('lena.k');
  await app.ok('decision:approve', { decisionId: proposal.decisionId, fingerprint: proposal.fingerprint });
  await app.ok('evidence:transition', { revisionId: 'ev-auth-001@1', to: 'REVOKED', reason: 'export came from the staging tenant' });
  await page.reload();
  await page.getByTestId('case-name').waitFor();

  const graph = new GraphViewPage(app);
  await graph.open();
  await expect(page.getByTestId('graph-claim-projection-cl-takeover')).toHaveText('PENDING REVALIDATION');
  await expect(page.getByTestId('graph-claim-decision-cl-takeover')).toHaveText('DECIDED · SUPPORTED');
  await graph.claimNode('cl-takeover').click();
  await expect(page.getByTestId('graph-claim-detail-projection')).toContainText('pending revalidation');
  await expect(page.getByTestId('graph-claim-detail-decision-state')).toHaveText('DECIDED');
  await app.screenshot('graph-pending-revalidation');

  // From the graph to the claim's review, where the decision shows it too.
  await page.getByTestId('graph-claim-detail-open-review').click();
  const review = new ReviewViewPage(app);
  await expect(review.part(String(proposal.decisionId), 'projection')).toContainText('PENDING REVALIDATION');
  await app.screenshot('review-pending-revalidation');
});
