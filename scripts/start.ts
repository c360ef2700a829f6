// `npm start`: build, then run the desktop app if Electron's binary is installed, else serve the
// same UI and handlers on 127.0.0.1 (browser mode) and say why.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { electronVersion, findElectronBinary } from '../electron/host/electronBinary';

const root = resolve(import.meta.dirname, '..');
const passThrough = process.argv.slice(2);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const run = (cmd: string, args: string[], cwd = root) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });

/**
 * better-sqlite3 must match Electron's ABI inside the app and Node's in tests. Instead of
 * rebuilding node_modules back and forth, keep a separate Electron build under .native/ and hand
 * its path to the main process; Node's build in node_modules is never touched.
 */
function electronSqliteBinding(): string {
  const version = electronVersion(root);
  const target = join(root, '.native', `electron-${version}`, 'better_sqlite3.node');
  if (existsSync(target)) return target;
  console.log(`Building better-sqlite3 for Electron ${version} (once; needs Electron's headers)…`);
  const work = mkdtempSync(join(tmpdir(), 'erwb-sqlite-'));
  try {
    cpSync(join(root, 'node_modules', 'better-sqlite3'), work, { recursive: true });
    rmSync(join(work, 'build'), { recursive: true, force: true });
    run(npx, ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${version}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], work);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}

run(npx, ['electron-vite', 'build']);

const electron = findElectronBinary(root);
let child: ChildProcess | undefined;
let why = 'path' in electron ? '' : electron.why;
if (process.env.ERWB_BROWSER_MODE) why = 'browser mode was requested (ERWB_BROWSER_MODE)';
else if ('path' in electron) {
  try {
    const binding = electronSqliteBinding();
    console.log('Starting the desktop app (Electron).');
    child = spawn(electron.path, ['.', ...passThrough], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ERWB_ELECTRON_SQLITE_BINDING: binding },
    });
  } catch (err) {
    why = `better-sqlite3 could not be built for Electron (${(err as Error).message})`;
  }
}
if (!child) {
  child = spawn(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'electron/host/main.ts', '--reason', why, ...passThrough], {
    cwd: root,
    stdio: 'inherit',
  });
}
const running = child;
running.on('exit', (code) => process.exit(code ?? 0));
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => running.kill(sig));
