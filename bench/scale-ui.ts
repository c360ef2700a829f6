/**
 * The window on a case at the size analysts work at (issue 11), in Debian's Chromium over the
 * loopback host: the time from unlocking to a settled window (every read the window makes on
 * opening has answered) and from each view's button to a settled view, how many requests that
 * took and how many failed. Baseline in the same run: the same steps on the bundled 7-claim demo.
 *
 *   BENCH_KEEP=/tmp/case10k npx tsx bench/scale-case.ts   # builds the 10,000-claim case once
 *   npx tsx bench/scale-ui.ts /tmp/case10k
 *
 * Without a case directory it reports the demo alone.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureDemoCase } from '../electron/core/demo';
import { handlers } from '../electron/core/handlers';
import { Session } from '../electron/core/session';
import { startHost } from '../electron/host/server';
import { TEST_PASSPHRASE, testSession } from '../electron/testing/testCase';
import { report } from './lib';

const ROOT = resolve(import.meta.dirname, '..');
const VIEWS = ['dashboard', 'graph', 'timeline', 'disputes', 'evidence', 'review', 'quarantine', 'remediations', 'whatif', 'audit', 'cases'] as const;
/** BENCH_SHOTS=<dir>: save a screenshot of each case's graph and What-if view there. */
const SHOTS = process.env.BENCH_SHOTS;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

async function settled(page: Page): Promise<void> {
  await page.waitForTimeout(100);
  await page.waitForLoadState('networkidle', { timeout: 600_000 });
}

async function measure(label: string, session: Session, actorId: string, passphrase: string): Promise<Record<string, number>> {
  const host = await startHost({ session, handlers, rendererDir: join(ROOT, 'out', 'renderer') });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    let requests = 0;
    let failed = 0;
    page.on('request', () => (requests += 1));
    page.on('requestfailed', () => (failed += 1));
    await page.goto(host.url);
    await page.getByTestId('case-name').waitFor();
    await page.getByTestId('unlock-actor').selectOption(actorId);
    await page.getByTestId('unlock-passphrase').fill(passphrase);
    const t0 = performance.now();
    await page.getByTestId('unlock-submit').click();
    await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor({ timeout: 600_000 });
    await settled(page);
    const figures: Record<string, number> = { ready_ms: performance.now() - t0, requests_to_ready: requests };
    for (const view of VIEWS) {
      const t = performance.now();
      await page.getByTestId(`nav-${view}`).click({ timeout: 600_000 });
      await page.locator('main').waitFor();
      await settled(page);
      figures[`${view}_ms`] = performance.now() - t;
      if (SHOTS && view === 'whatif') await page.screenshot({ path: join(SHOTS, `${label}-whatif.png`) });
    }
    Object.assign(figures, await exploreGraph(page, label));
    figures.requests = requests;
    figures.failed_requests = failed;
    report(label, figures);
    return figures;
  } finally {
    await browser.close();
    await host.close();
  }
}

/**
 * The graph as an analyst moves through it (issue 11.2): focus on a claim, expand a node, search
 * and open a hit, back to the case; then frame times (requestAnimationFrame deltas) while zooming
 * and panning the case's neighbourhood.
 */
async function exploreGraph(page: Page, label: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const step = async (name: string, act: () => Promise<void>) => {
    const t = performance.now();
    await act();
    await settled(page);
    out[name] = performance.now() - t;
  };
  await page.getByTestId('nav-graph').click();
  await settled(page);
  const claim = page.locator('.react-flow__node-claim').first();
  await step('graph_focus_claim_ms', async () => {
    await claim.dblclick();
    await page.getByTestId('graph-crumb-1').waitFor();
  });
  const expand = page.locator('[data-testid^="graph-expand-"]').first();
  if ((await expand.count()) > 0) await step('graph_expand_ms', () => expand.click());
  await step('graph_search_open_ms', async () => {
    await page.getByTestId('graph-search').fill('process');
    await page.locator('[data-testid^="graph-search-hit-"]').first().click({ timeout: 600_000 });
    await page.getByTestId('graph-crumb-2').waitFor();
  });
  await step('graph_back_to_case_ms', () => page.getByTestId('graph-crumb-0').click());
  out.graph_nodes_drawn = await page.locator('.react-flow__node').count();
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `graph-${label.split(' ')[0]}.png`) });

  // Frame times while the analyst zooms and pans: every rAF delta over 40 wheel steps and a drag.
  // A script string: this file is typed for Node, the recorder runs in the page.
  await page.evaluate(`(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (window.__frames.length < 100000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const box = (await page.getByTestId('graph-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 40; i++) await page.mouse.wheel(0, i < 20 ? 120 : -120);
  await page.mouse.down();
  for (let i = 0; i < 30; i++) await page.mouse.move(box.x + box.width / 2 + i * 8, box.y + box.height / 2 + i * 5);
  await page.mouse.up();
  const frames = ((await page.evaluate('window.__frames')) as number[]).slice(1).sort((a, b) => a - b);
  out.graph_frames = frames.length;
  out.graph_frame_p50_ms = frames[Math.floor(frames.length * 0.5)] ?? NaN;
  out.graph_frame_p95_ms = frames[Math.floor(frames.length * 0.95)] ?? NaN;
  return out;
}

async function main(): Promise<void> {
  const demoDir = mkdtempSync(join(tmpdir(), 'erwb-bench-ui-'));
  const demo = new Session({ userDataDir: demoDir, log: () => {} });
  demo.open(await ensureDemoCase(join(ROOT, 'resources', 'demo-case.json'), demoDir));
  const base = await measure('demo case, 7 claims (baseline)', demo, 'lena.k', 'demo-lena-2231');
  demo.close();
  rmSync(demoDir, { recursive: true, force: true });
  const dir = process.argv[2];
  if (!dir) return;
  const big = testSession({ userDataDir: join(dir, 'user') });
  big.open(join(dir, 'test.case.sqlite'));
  const large = await measure(`generated case in ${dir}`, big, 'rev', TEST_PASSPHRASE);
  big.close();
  const compared = ['ready_ms', ...VIEWS.map((v) => `${v}_ms`), 'graph_focus_claim_ms', 'graph_search_open_ms', 'graph_back_to_case_ms', 'graph_frame_p95_ms'];
  report('ratios to the demo', Object.fromEntries(compared.map((k) => [k, large[k]! / base[k]!])));
}

void main();
