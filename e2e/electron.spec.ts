import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { electronVersion, findElectronBinary } from '../electron/host/electronBinary';
import type { PreloadApi } from '../shared/ipc/contract';

const ROOT = resolve(import.meta.dirname, '..');

/** npm start builds better-sqlite3 for Electron's ABI once, under .native/; reuse that build. */
function electronSqliteBinding(): string | undefined {
  if (process.env.ERWB_ELECTRON_SQLITE_BINDING) return process.env.ERWB_ELECTRON_SQLITE_BINDING;
  const built = join(ROOT, '.native', `electron-${electronVersion(ROOT)}`, 'better_sqlite3.node');
  return existsSync(built) ? built : undefined;
}
const binding = electronSqliteBinding();

test('the desktop app opens the demo case in a secure window', async () => {
  const bin = findElectronBinary(ROOT);
  if (!('path' in bin)) process.stdout.write(`electron.spec skipped: ${bin.why}\n`);
  test.skip(!('path' in bin), `skipped: ${'why' in bin ? bin.why : ''}`);
  if (!('path' in bin)) return;
  if (!binding) process.stdout.write('electron.spec skipped: no Electron build of better-sqlite3 yet; run npm start once to build it\n');
  test.skip(!binding, 'skipped: set ERWB_ELECTRON_SQLITE_BINDING to an Electron build of better-sqlite3 (npm start makes one under .native/)');
  const userData = mkdtempSync(join(tmpdir(), 'erwb-electron-'));
  const app = await electron.launch({
    executablePath: bin.path,
    args: [ROOT, '--no-sandbox'],
    env: { ...process.env, ERWB_USER_DATA: userData, ERWB_ELECTRON_SQLITE_BINDING: binding! },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('case-name')).toHaveText('Account takeover: svc-backup (IR-2231)');
    await expect(window.getByTestId('status-transport')).toHaveText('Desktop (Electron IPC)');
    // Sandboxed, isolated renderer: no Node globals in the page, only the contract's bridge.
    const page = await window.evaluate(() => {
      const g = globalThis as { require?: unknown; process?: unknown; workbench?: PreloadApi };
      return { require: typeof g.require, process: typeof g.process, channels: g.workbench?.channels.length ?? 0 };
    });
    expect(page).toMatchObject({ require: 'undefined', process: 'undefined' });
    expect(page.channels).toBeGreaterThan(10);
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
