import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCaseFile, type CaseDb } from '../store/caseFile';

/** Pages copied per step of the online backup (4 KiB pages: 16 MiB a step, then the event loop turns). */
const PAGES_PER_STEP = 4096;

export interface CaseCopy {
  db: CaseDb;
  bytes: number;
}

/**
 * Runs `use` on a copy of the open case and deletes the copy afterwards, whatever happened. The
 * copy is SQLite's online backup of the case's own connection (one consistent state, WAL content
 * included), written into a fresh private temp directory and opened like any case file; the case
 * itself is only read.
 */
export async function withCaseCopy<T>(source: CaseDb, use: (copy: CaseCopy) => Promise<T>): Promise<{ result: T; removed: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-drill-'));
  const path = join(dir, 'drill-copy.case.sqlite');
  let db: CaseDb | undefined;
  let result: T;
  try {
    await source.backup(path, { progress: () => PAGES_PER_STEP });
    db = openCaseFile(path);
    result = await use({ db, bytes: statSync(path).size });
  } finally {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { result, removed: !existsSync(dir) };
}
