import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { invalid } from './errors';

/** Cases remembered; the least recently set beyond this are forgotten. */
const MAX_CASES = 200;
/** A view's remembered state is a handful of filter fields, not a store for data. */
export const MAX_PREF_BYTES = 4096;

type Prefs = Record<string, { at: string; views: Record<string, unknown> }>;

const fileOf = (userDataDir: string) => join(userDataDir, 'view-prefs.json');

function readPrefs(userDataDir: string): Prefs {
  try {
    const parsed: unknown = JSON.parse(readFileSync(fileOf(userDataDir), 'utf8'));
    // A damaged or hand-edited file is forgotten, never an error: these are preferences.
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Prefs) : {};
  } catch {
    return {};
  }
}

/**
 * What a window remembers per case and view (a queue's filters and order), in
 * <userDataDir>/view-prefs.json: a preference of this machine, not part of the case, so it is
 * neither receipted nor carried by a hand-off. The renderer checks what comes back against the
 * view's own schema and falls back to its defaults.
 */
export function recallViewPrefs(userDataDir: string, caseId: string, view: string): unknown {
  const entry = readPrefs(userDataDir)[caseId];
  return entry && typeof entry.views === 'object' && entry.views !== null ? (entry.views[view] ?? null) : null;
}

export function rememberViewPrefs(userDataDir: string, caseId: string, view: string, value: unknown, at: string): void {
  const size = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (size > MAX_PREF_BYTES) throw invalid(`view:remember: the ${view} state is ${size} bytes; at most ${MAX_PREF_BYTES} are kept`, [{ path: ['value'], message: `at most ${MAX_PREF_BYTES} bytes` }]);
  const prefs = readPrefs(userDataDir);
  const views = { ...(prefs[caseId]?.views ?? {}), [view]: value };
  const kept = Object.entries({ ...prefs, [caseId]: { at, views } })
    .sort(([, a], [, b]) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, MAX_CASES);
  // A temp name of this process's own, renamed over the file: a reader never sees half a file.
  const tmp = `${fileOf(userDataDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(Object.fromEntries(kept)));
  renameSync(tmp, fileOf(userDataDir));
}
