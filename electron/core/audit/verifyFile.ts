import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import { CASE_APPLICATION_ID, inReadSnapshot, type CaseDb } from '../store/caseFile';
import { LATEST_VERSION } from '../store/migrations';
import { type VerifyOptions } from './verify';
import { verifyFromMark, type VerificationMarks } from './verifyMarks';

/**
 * Verifying a case file from outside any session (cli verify, tests, another machine): read-only,
 * without migrating or otherwise touching the file it judges.
 */
export interface VerifyFileResult {
  /** 0 verified, 1 broken, 3 could not be verified (not a case file, newer schema, unreadable). */
  exitCode: 0 | 1 | 3;
  verification: ChainVerification | null;
  schemaVersion: number | null;
  /** One human line: what was found and, when it failed, where. */
  summary: string;
  notes: string[];
}

/**
 * Opens a case file for verification without changing it or its folder. A file at rest (no -wal
 * beside it) is copied to a temp folder first, because even a read-only SQLite connection to a
 * WAL database creates -wal and -shm files next to it; a live file (its -wal exists) is read in
 * place, read-only, so the writer's latest commits are included. Nothing is migrated.
 */
async function withReadOnlyCopy<T>(path: string, run: (db: CaseDb) => Promise<T>): Promise<T> {
  let tempDir: string | null = null;
  let target = path;
  if (!existsSync(`${path}-wal`)) {
    // Stryker disable next-line StringLiteral: equivalent; the temp folder's prefix only names it
    tempDir = mkdtempSync(join(tmpdir(), 'erwb-verify-'));
    target = join(tempDir, basename(path));
    copyFileSync(path, target);
  }
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: verify never writes, so read-only is defence in depth no test can observe
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    return await run(db);
  } finally {
    db.close();
    if (tempDir) {
      rmSync(tempDir, {
        recursive: true,
        // Stryker disable next-line BooleanLiteral: equivalent; the folder was made a moment before, so force changes nothing
        force: true,
      });
    }
  }
}

export interface VerifyFileOptions extends VerifyOptions {
  /** This machine's verification marks: a successful verification records where it ended. */
  marks?: VerificationMarks;
  /** With marks: resume from the last one (routine), instead of verifying everything. */
  routine?: boolean;
}

export async function verifyCaseFile(path: string, options: VerifyFileOptions = {}): Promise<VerifyFileResult> {
  const full = resolve(path);
  const name = basename(full);
  const fail = (summary: string): VerifyFileResult => ({ exitCode: 3, verification: null, schemaVersion: null, summary, notes: [] });
  if (!existsSync(full)) return fail(`${name}: no such file; nothing was verified`);
  // A pipe or a device would block the copy (or never end): only a regular file is a case file.
  if (!statSync(full).isFile()) return fail(`${name}: not a regular file (a folder, pipe or device); nothing was verified`);
  try {
    return await withReadOnlyCopy(full, async (db) => {
      const appId = db.pragma('application_id', { simple: true }) as number;
      const version = db.pragma('user_version', { simple: true }) as number;
      if (appId !== CASE_APPLICATION_ID) return fail(`${name}: not an evidence-review case file; nothing was verified`);
      if (version > LATEST_VERSION) {
        return { ...fail(`${name}: written by a newer workbench (schema ${version}; this build knows up to ${LATEST_VERSION}); verify it with an updated workbench. The file was not changed.`), schemaVersion: version };
      }
      const notes: string[] = [];
      if (version < LATEST_VERSION) {
        notes.push(`schema ${version} is older than this build's ${LATEST_VERSION}: verified as it is, without migrating; checks needing newer tables were skipped (counted as unchecked)`);
      }
      const { marks, routine, ...verifyOptions } = options;
      const v = await inReadSnapshot(db, () => verifyFromMark(db, { marks: marks ?? null, full: !routine, now: () => new Date().toISOString(), options: verifyOptions }));
      const scope = v.routine
        ? `routine: ${v.length > v.routine.since ? `receipts ${v.routine.since + 1}..${v.length}` : 'nothing added'} since this machine verified through seq ${v.routine.since} (${v.routine.markedAt}); without --routine everything is re-read`
        : 'full';
      const summary = v.ok
        ? `${name}: audit chain verifies (${scope}): ${v.length} receipts, ${v.signatures.verified} signatures (${v.signatures.mode}), ${v.fingerprints.checked} state fingerprints recomputed (${v.fingerprints.unchecked} unchecked); head ${v.head}; root key ${v.rootKey}`
        : `${name}: audit chain BROKEN at seq ${v.firstBroken!.seq} (${v.firstBroken!.kind}): ${v.firstBroken!.reason}`;
      return { exitCode: v.ok ? 0 : 1, verification: v, schemaVersion: version, summary, notes };
    });
  } catch (err) {
    return fail(`${name}: could not be read as a case file (${(err as Error).message}); nothing was verified`);
  }
}
