/**
 * Screenshots of every view of the bundled demo case (issue 11), at 1440×900 and 1024×700, in the
 * light and the dark theme, into docs/screenshots/<view>-<width>x<height>-<scheme>.png. They are
 * the README's pictures; run after a UI change and look at them.
 *
 *   npm run build && npm run screenshots
 */
import { chromium } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDemoCase } from '../electron/core/demo';
import { handlers } from '../electron/core/handlers';
import { Session } from '../electron/core/session';
import { startHost } from '../electron/host/server';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'screenshots');
const VIEWS = ['cases', 'dashboard', 'intake', 'graph', 'timeline', 'evidence', 'review', 'disputes', 'quarantine', 'remediations', 'whatif', 'audit'] as const;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'erwb-shots-'));
  const session = new Session({ userDataDir: dir, log: () => {} });
  session.open(await ensureDemoCase(join(ROOT, 'resources', 'demo-case.json'), dir));
  const host = await startHost({ session, handlers, rendererDir: join(ROOT, 'out', 'renderer') });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  try {
    for (const scheme of ['light', 'dark'] as const) {
      for (const size of SIZES) {
        const page = await browser.newPage({ viewport: size, colorScheme: scheme });
        await page.goto(host.url);
        await page.getByTestId('unlock-actor').selectOption('lena.k');
        await page.getByTestId('unlock-passphrase').fill('demo-lena-2231');
        await page.getByTestId('unlock-submit').click();
        await page.getByTestId('status-actor').filter({ hasText: 'Acting as' }).waitFor();
        for (const view of VIEWS) {
          await page.getByTestId(`nav-${view}`).click();
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(300);
          const file = join(OUT, `${view}-${size.width}x${size.height}-${scheme}.png`);
          await page.screenshot({ path: file });
          process.stdout.write(`${file}\n`);
        }
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await host.close();
    session.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
