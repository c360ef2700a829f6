import { expect, test } from './fixtures';
import { GraphViewPage } from './pages/ReviewViews';

// Graph exploration (issue 11.2) on the demo case: the graph reads neighbourhoods, and the analyst
// moves through the case from one to the next.
test.use({ viewport: { width: 1440, height: 900 } });

/** The demo binds each revision to one claim: bind ev-edr-001@1 to a second one, the seam to expand along. */
async function sharedRevision(app: GraphViewPage['app']): Promise<{ revisionId: string; claims: [string, string] }> {
  const revisionId = 'ev-edr-001@1';
  await app.ok('claim:bind', { claimId: 'cl-takeover', revisionId, relation: 'CONTEXT_ONLY', role: 'CONTEXT', rationale: 'the same host and account' });
  await app.page.reload();
  await app.page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
  return { revisionId, claims: ['cl-powershell', 'cl-takeover'] };
}

test('focus on a claim, expand a shared revision and collapse it, search to an evidence item, and back along the trail', async ({ app, page }) => {
  const graph = new GraphViewPage(app);
  await graph.open();
  const total = (await app.ok('claim:list', {})).length;
  await expect(page.getByTestId('graph-crumb-0')).toHaveText('Case');
  await expect(page.getByTestId('graph-extent')).toContainText(`${total} of ${total} claim(s)`);

  const { revisionId, claims } = await sharedRevision(app);
  const [first, ...others] = claims;
  await graph.open();
  await graph.claimNode(first).dblclick();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText(first);
  await expect(page.getByTestId('graph-extent')).toContainText(`1 of ${total} claim(s)`);
  for (const other of others) await expect(graph.claimNode(other)).toHaveCount(0);
  // The shared revision says how many claims the neighbourhood left out, and adds them on request.
  const expand = page.getByTestId(`graph-expand-rev:${revisionId}`);
  await expect(expand).toHaveText(`+${others.length}`);
  await expand.click();
  for (const other of others) await expect(graph.claimNode(other)).toBeVisible();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText(first);
  await app.screenshot('graph-expanded');
  await page.getByTestId(`graph-collapse-rev:${revisionId}`).click();
  for (const other of others) await expect(graph.claimNode(other)).toHaveCount(0);

  // Search the case and open the graph on a hit: an evidence item by words of its content.
  const target = await app.ok('evidence:get', { revisionId: 'ev-inv-001@1' });
  await page.getByTestId('graph-search').fill('powershell');
  await page.getByTestId(`graph-search-hit-${target.revisionId}`).click();
  await expect(page.getByTestId('graph-crumb-2')).toHaveText(target.revisionId);
  await expect(page.getByTestId('graph-revision-detail-id')).toHaveText(target.revisionId);
  await expect(graph.revisionNode(target.revisionId)).toHaveClass(/is-selected/);
  for (const c of target.boundTo) await expect(graph.claimNode(c.claimId)).toBeVisible();

  // Escape steps back one focus; a crumb goes straight to where it names.
  await page.getByTestId('graph-canvas').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('graph-crumb-1')).toHaveAttribute('aria-current', 'location');
  await expect(page.getByTestId('graph-crumb-2')).toHaveCount(0);
  await page.getByTestId('graph-crumb-0').click();
  await expect(page.getByTestId('graph-extent')).toContainText(`${total} of ${total} claim(s)`);

  // The disputes: what the Disputes view lists, drawn with the evidence on both sides.
  const inDispute = await app.ok('graph:neighbourhood', { focus: { kind: 'disputes' } });
  await page.getByTestId('graph-focus-disputes').click();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText('Disputes');
  await expect(page.getByTestId('graph-extent')).toContainText(`${inDispute.disputes!.total} item(s) in dispute`);
  await expect(graph.claimStatus('cl-powershell')).toHaveText('MIXED');
  for (const c of inDispute.claims) await expect(graph.claimNode(c.claimId)).toBeVisible();
  await app.screenshot('graph-disputes');
});

test('arrow keys move between nodes, Enter opens the detail, the side panel refocuses the graph', async ({ app, page }) => {
  const graph = new GraphViewPage(app);
  await graph.open();
  const [firstClaim] = await app.ok('claim:list', {});
  await page.getByTestId('graph-canvas').focus();
  await page.keyboard.press('ArrowDown');
  await expect(graph.claimNode(firstClaim!.claimId)).toHaveClass(/is-selected/);
  await expect(page.getByTestId('graph-claim-detail-statement')).toHaveText(firstClaim!.statement);
  await page.keyboard.press('ArrowRight');
  const firstBound = firstClaim!.bindings.map((b) => b.revisionId);
  await expect(page.getByTestId('graph-revision-detail-id')).toHaveText(new RegExp(firstBound.map((id) => id.replace(/[.@~]/g, '\\$&')).join('|')));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('graph-side')).toBeFocused();
  // Zoomed out below reading size, nodes turn into badges (status and id); zoomed in, text again.
  for (let i = 0; i < 6; i++) await page.getByTestId('graph-zoom-out').click();
  await expect(graph.claimNode(firstClaim!.claimId)).toHaveClass(/is-compact/);
  await expect(graph.claimStatus(firstClaim!.claimId)).toHaveText(firstClaim!.status);
  await app.screenshot('graph-zoomed-out');
  await page.getByTestId('graph-fit-width').click();
  await expect(graph.claimNode(firstClaim!.claimId)).not.toHaveClass(/is-compact/);
  await page.getByTestId('graph-focus-selection').click();
  await expect(page.getByTestId('graph-crumb-1')).toHaveAttribute('aria-current', 'location');
  // Pivot from the revision to everything reported by the same source, and the claims binding it.
  const selected = (await page.getByTestId('graph-revision-detail-id').textContent())!;
  const { context } = await app.ok('evidence:get', { revisionId: selected });
  const pivot = await app.ok('graph:neighbourhood', { focus: { kind: 'source', id: selected } });
  await page.getByTestId('graph-pivot-source').click();
  await expect(page.getByTestId('graph-crumb-2')).toHaveText(`same source as ${selected}`);
  await expect(page.getByTestId('graph-extent')).toContainText(`${pivot.pivot!.total} revision(s) share the source ${context.sourceRef}`);
  for (const r of pivot.revisions) await expect(graph.revisionNode(r.revisionId)).toBeVisible();
  await expect(page.locator('.react-flow__node-evidence')).toHaveCount(pivot.revisions.length);
});

test('a neighbourhood that cannot be read says so with Retry and keeps the last graph, and Retry reads it', async ({ app, page }) => {
  const graph = new GraphViewPage(app);
  await graph.open();
  const neighbourhood = /\/api\/graph%3Aneighbourhood$/;
  await page.route(neighbourhood, (route) => route.abort('failed'));
  const [claim] = await app.ok('claim:list', {});
  await graph.claimNode(claim!.claimId).dblclick();
  await expect(page.getByTestId('graph-error')).toContainText('could not be read');
  // What was drawn stays: the case's claims, not an empty canvas that looks like an empty case.
  await expect(page.locator('.react-flow__node-claim')).not.toHaveCount(0);
  await page.unroute(neighbourhood);
  await page.getByTestId('graph-retry').click();
  await expect(page.getByTestId('graph-error')).toHaveCount(0);
  await expect(page.getByTestId('graph-extent')).toContainText('1 of');
});
