import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ReviewViewPage } from './pages/DecisionPages';

// Computation records (issue 14 §1): arithmetic over numbers picked from evidence text, cited by a
// decision, fenced with the evidence it was computed from.
test.use({ viewport: { width: 1440, height: 900 } });

/** Selects `text` inside the element as a user dragging over it would. */
async function select(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).evaluate((el, wanted) => {
    const node = el.firstChild!;
    const start = node.textContent!.indexOf(wanted);
    const range = el.ownerDocument.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + wanted.length);
    const selection = el.ownerDocument.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
  }, text);
}

test('a computation from two numbers in evidence, cited by a decision, is fenced when one input is revoked', async ({ app, page }) => {
  const url = new URL(page.url());
  await page.goto(`${url.origin}${url.pathname}#/graph/claim/cl-exfil`);
  await page.getByTestId('graph-node-claim-cl-exfil').click();
  const panel = 'graph-claim-detail-computations';
  await page.getByTestId(`${panel}-new`).click();
  const form = `${panel}-form`;
  await page.getByTestId(`${form}-question`).fill('bytes the firewall counted beyond the EDR');
  await page.getByTestId(`${form}-expression`).fill('fw - edr');
  // The first input picked from the EDR event's text with the mouse.
  await page.getByTestId(`${form}-input-0-name`).fill('edr');
  await page.getByTestId(`${form}-input-0-revision`).selectOption('ev-edr-002@1');
  await select(page, `${form}-text`, '23068672');
  await page.getByTestId(`${form}-text-use`).click();
  await expect(page.getByTestId(`${form}-input-0-quote`)).toHaveValue('23068672');
  await page.getByTestId(`${form}-add-input`).click();
  await page.getByTestId(`${form}-input-1-name`).fill('fw');
  await page.getByTestId(`${form}-input-1-revision`).selectOption('ev-fw-001@1');
  await page.getByTestId(`${form}-input-1-quote`).fill('23169021');
  // A typo is named with its field before anything is written.
  await page.getByTestId(`${form}-expression`).fill('fw - erd');
  await page.getByTestId(`${form}-submit`).click();
  await expect(page.getByTestId(`${form}-error`)).toContainText('"erd" is not an input');
  await page.getByTestId(`${form}-expression`).fill('(fw - edr) * 1 B');
  await page.getByTestId(`${form}-submit`).click();

  const [computation] = (await app.ok('computation:list', { claimId: 'cl-exfil' })).computations;
  expect(computation).toMatchObject({ result: '100349 B', state: 'CURRENT' });
  await expect(page.getByTestId(`${panel}-${computation!.computationId}-result`)).toHaveText('100349 B');
  await app.screenshot('computation');

  // Cite it in a decision: proposed by Lena, approved by Priya (four eyes). The claim needs a
  // quorum before a SUPPORTED verdict, so the decision asks for more evidence.
  const review = new ReviewViewPage(app);
  await review.open('cl-exfil');
  await page.getByTestId(`review-propose-cite-${computation!.computationId}`).check();
  await review.propose('NEEDS_MORE_EVIDENCE', 'EDR and firewall agree to within 100 kB; pull the proxy log for the quorum');
  const { openProposal } = await app.ok('review:get', { claimId: 'cl-exfil' });
  expect(openProposal!.computationRefs).toEqual([computation!.computationId]);
  await app.actAs('priya.s');
  await review.open('cl-exfil');
  await review.act(openProposal!.decisionId, 'approve', 'checked the arithmetic');
  await expect(review.part(openProposal!.decisionId, 'status')).toHaveText('APPROVED');

  // Revoke one input's evidence in the graph: the computation is fenced and the decision goes pending.
  await page.goto(`${url.origin}${url.pathname}#/graph/claim/cl-exfil`);
  await page.getByTestId('graph-node-rev-ev-fw-001@1').click();
  const transition = 'graph-revision-detail-transition';
  await page.getByTestId(`${transition}-to`).selectOption('REVOKED');
  await page.getByTestId(`${transition}-reason`).fill('the firewall export was from the wrong day');
  await page.getByTestId(`${transition}-submit`).click();
  await page.getByTestId(`${transition}-submit-confirm`).click();
  await page.getByTestId('graph-node-claim-cl-exfil').click();
  await expect(page.getByTestId(`${panel}-${computation!.computationId}-state`)).toHaveText('FENCED');
  await expect(page.getByTestId(`${panel}-${computation!.computationId}-reasons`)).toContainText('REVOKED');
  await page.getByTestId(`${panel}-${computation!.computationId}`).scrollIntoViewIfNeeded();
  await app.screenshot('computation-fenced');
  // Pending revalidation until the worker converges, then a remediation of the decision.
  await expect
    .poll(async () => {
      const claim = await app.ok('claim:get', { claimId: 'cl-exfil' });
      const remediations = (await app.ok('remediation:list', { status: 'OPEN' })).items.filter((m) => m.claimId === 'cl-exfil');
      return claim.pendingRevalidation || remediations.some((m) => m.decision.decisionId === openProposal!.decisionId);
    })
    .toBe(true);
});
