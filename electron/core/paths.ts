import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_DIR_NAME = 'evidence-review-workbench';

/**
 * Where case files and settings live when Electron is not deciding: $ERWB_USER_DATA, else the
 * XDG data directory. Electron uses app.getPath('userData') instead.
 */
export function defaultUserDataDir(): string {
  if (process.env.ERWB_USER_DATA) return process.env.ERWB_USER_DATA;
  const xdg = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(xdg, APP_DIR_NAME);
}
