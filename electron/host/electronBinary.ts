import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Finds Electron's binary without require('electron'): that module tries to download the binary
 * when it is missing, which hangs or fails on an offline machine.
 */
export function findElectronBinary(root: string): { path: string } | { why: string } {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) {
    return { why: "Electron's binary is not installed (its download is disabled for offline installs; run \"npx install-electron\" where the network allows)" };
  }
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { why: `Electron's binary is missing at ${binary}; run "npx install-electron"` };
}

export function electronVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
}
