import { generatedEvidenceId, writeGeneratedBundle } from '../electron/testing/generatedBundle';
import { expect, test } from './fixtures';
import { GraphViewPage } from './pages/ReviewViews';

// The ways of moving through a case (issue 11.2-11.4, 11.7) on a case of the size analysts work at:
// a generated case of 10,000 claims, imported through bundle:import (the queues have their own test).
test.use({ viewport: { width: 1440, height: 900 } });

test('on a generated case of 10,000 claims: the graph opens on a claim from the palette, expands step by step, searches, steps back; deep links reload; the timeline filters', async ({ app, page, workbench }) => {
  test.setTimeout(240_000);
  const imported = await app.ok('bundle:import', { path: writeGeneratedBundle(workbench.userDataDir) });
  expect(imported.created.claims).toBe(10_000);
  // Evidence i is bound to claim i; a chain to expand along: A's revision also bound to B, B's to C.
  const [a, b, c] = ['gen-cl-04200', 'gen-cl-04201', 'gen-cl-04202'];
  const [revA, revB] = [`${generatedEvidenceId(4200)}@1`, `${generatedEvidenceId(4201)}@1`];
  await app.ok('claim:bind', { claimId: b, revisionId: revA, relation: 'CONTEXT_ONLY', role: 'CONTEXT', rationale: 'same host' });
  await app.ok('claim:bind', { claimId: c, revisionId: revB, relation: 'CONTEXT_ONLY', role: 'CONTEXT', rationale: 'same host' });
  await page.reload();
  await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();

  const graph = new GraphViewPage(app);
  await graph.open();
  const total = (await app.ok('claim:page', { limit: 1, counts: true })).counts!.total;
  expect(total).toBeGreaterThan(10_000);
  // The case opens on a bounded neighbourhood, never the whole case.
  await expect(page.getByTestId('graph-extent')).toContainText(`of ${total} claim(s)`);
  await expect(page.getByTestId('graph-extent')).toContainText('double-click a node or search to move on');
  expect(await page.locator('.react-flow__node').count()).toBeLessThan(600);

  // The palette finds a claim by words of its statement, anywhere in the case, and opens it in the graph.
  const statement = (await app.ok('claim:get', { claimId: a })).statement;
  await page.locator('body').press('/');
  await page.getByTestId('palette-input').fill(statement);
  await page.getByTestId(`palette-hit-${a}`).click();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText(a);
  await expect(page).toHaveURL(new RegExp(`#/graph/claim/${a}$`));
  await expect(graph.claimNode(b)).toHaveCount(0);

  // Expand step by step: the shared revision's other claim, that claim's evidence, and its other claim.
  await page.getByTestId(`graph-expand-rev:${revA}`).click();
  await expect(graph.claimNode(b)).toBeVisible();
  await page.getByTestId(`graph-expand-claim:${b}`).click();
  await expect(graph.revisionNode(revB)).toBeVisible();
  await page.getByTestId(`graph-expand-rev:${revB}`).click();
  await expect(graph.claimNode(c)).toBeVisible();
  await app.screenshot('graph-10k-expanded');

  // Search within the case from the graph, and jump to an evidence item.
  const target = `${generatedEvidenceId(4205)}@1`;
  const title = (await app.ok('evidence:get', { revisionId: target })).title;
  await page.getByTestId('graph-search').fill(title);
  await page.getByTestId(`graph-search-hit-${target}`).click();
  await expect(page.getByTestId('graph-crumb-2')).toHaveText(target);
  await expect(page.getByTestId('graph-revision-detail-id')).toHaveText(target);

  // Escape steps back one focus; the place is a link that survives a reload; Back goes back.
  await page.getByTestId('graph-canvas').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('graph-crumb-1')).toHaveAttribute('aria-current', 'location');
  await page.reload();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText(a);
  await expect(graph.claimNode(a)).toBeVisible();
  await app.nav('timeline');
  await page.goBack();
  await expect(page.getByTestId('view-graph')).toBeVisible();
  await expect(page.getByTestId('graph-crumb-1')).toHaveText(a);

  // The timeline of one claim among 10,000, exactly as the channel lists it.
  await app.nav('timeline');
  await page.getByTestId('timeline-claim').fill(b);
  const forClaim = await app.ok('timeline:list', { claimId: b, limit: 500 });
  expect(forClaim.events.length).toBeGreaterThan(0);
  await expect(page.getByTestId('timeline-count')).toHaveText(`${forClaim.events.length} event(s)`);
  await app.screenshot('timeline-10k-claim');
});

test('on a generated case of 10,000 claims: an overview of 1,000 nodes draws its bindings on one canvas, zoomed out its nodes too, and a click there picks the node', async ({ app, page, workbench }) => {
  test.setTimeout(240_000);
  await app.ok('bundle:import', { path: writeGeneratedBundle(workbench.userDataDir) });
  await page.reload();
  await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
  const graph = new GraphViewPage(app);
  await graph.open();
  const overview = page.getByTestId('graph-overview');
  // The default neighbourhood reads well and is drawn by React Flow alone.
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  await expect(overview).toHaveCount(0);

  await page.getByTestId('graph-limit').selectOption('1000');
  await expect(overview).toHaveAttribute('data-nodes', 'dom');
  // Bindings in view are stroked on the canvas, none is an SVG edge; nodes in view stay elements.
  await expect.poll(async () => Number(await overview.getAttribute('data-edges-in-view'))).toBeGreaterThan(0);
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  const nodesAtReadingZoom = await page.locator('.react-flow__node').count();
  expect(nodesAtReadingZoom).toBeGreaterThan(0);
  expect(nodesAtReadingZoom).toBeLessThan(200);

  // Zoomed out to badges: the nodes are drawn on the canvas, React Flow holds none.
  for (let i = 0; i < 6 && (await overview.getAttribute('data-nodes')) !== 'canvas'; i++) await page.getByTestId('graph-zoom-out').click();
  await expect(overview).toHaveAttribute('data-nodes', 'canvas');
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  // The overview map still shows every node placed, and a click on it moves the view there.
  await page.getByTestId('graph-show-map').check();
  const map = page.getByTestId('graph-minimap');
  expect(Number(await map.getAttribute('data-nodes'))).toBeGreaterThan(900);
  const viewport = page.locator('.react-flow__viewport');
  const before = await viewport.getAttribute('style');
  const mapBox = (await map.boundingBox())!;
  await page.mouse.click(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height - 5);
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(before);
  await expect(overview).toHaveAttribute('data-nodes', 'canvas');
  await app.screenshot('graph-10k-overview-map');
  await page.getByTestId('graph-show-map').uncheck();
  // Back to the top of the case, zoomed out to badges again.
  await page.getByTestId('graph-fit-width').click();
  for (let i = 0; i < 6 && (await overview.getAttribute('data-nodes')) !== 'canvas'; i++) await page.getByTestId('graph-zoom-out').click();
  await expect(overview).toHaveAttribute('data-nodes', 'canvas');
  await app.screenshot('graph-10k-overview');

  // The claim at the top of the claim column (flow 0..280 × 0..150) is picked where it is drawn.
  // React Flow writes the viewport as `transform: translate(Xpx, Ypx) scale(Z)`.
  const style = (await page.locator('.react-flow__viewport').getAttribute('style')) ?? '';
  const [x, y, zoom] = (/translate\(([-\d.]+)px, ([-\d.]+)px\) scale\(([\d.]+)\)/.exec(style) ?? []).slice(1).map(Number) as [number, number, number];
  expect(zoom, `the viewport's transform, from: ${style}`).toBeGreaterThan(0);
  const box = (await page.locator('.react-flow').boundingBox())!;
  await page.mouse.click(box.x + x + 140 * zoom, box.y + y + 75 * zoom);
  await expect(overview).toHaveAttribute('data-selected', /^claim:/);
  const picked = (await overview.getAttribute('data-selected'))!.slice('claim:'.length);
  await expect(page.getByTestId('graph-claim-detail-statement')).toHaveText((await app.ok('claim:get', { claimId: picked })).statement);
  // A click where nothing is drawn clears the selection; a double-click on the claim opens its neighbourhood.
  await page.mouse.click(box.x + x + 420 * zoom, box.y + y + 75 * zoom);
  await expect(overview).toHaveAttribute('data-selected', '');
  await page.mouse.dblclick(box.x + x + 140 * zoom, box.y + y + 75 * zoom);
  await expect(page.getByTestId('graph-crumb-1')).toHaveText(picked);
  await expect(graph.claimNode(picked)).toBeVisible();
});
