import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChainVerification } from '../../shared/ipc/channels/audit';
import { parseHead, verifyChainAsync, type VerifyOptions } from '../core/audit/verify';
import { CASE_APPLICATION_ID, inReadSnapshot, type CaseDb } from '../core/store/caseFile';
import { LATEST_VERSION } from '../core/store/migrations';

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
    tempDir = mkdtempSync(join(tmpdir(), 'erwb-verify-'));
    target = join(tempDir, basename(path));
    copyFileSync(path, target);
  }
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    return await run(db);
  } finally {
    db.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

export async function verifyCaseFile(path: string, options: VerifyOptions = {}): Promise<VerifyFileResult> {
  const full = resolve(path);
  const name = basename(full);
  const fail = (summary: string): VerifyFileResult => ({ exitCode: 3, verification: null, schemaVersion: null, summary, notes: [] });
  if (!existsSync(full)) return fail(`${name}: no such file; nothing was verified`);
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
      const v = await inReadSnapshot(db, () => verifyChainAsync(db, options));
      const summary = v.ok
        ? `${name}: audit chain verifies: ${v.length} receipts, ${v.signatures.verified} signatures (${v.signatures.mode}), ${v.fingerprints.checked} state fingerprints recomputed (${v.fingerprints.unchecked} unchecked); head ${v.head}; root key ${v.rootKey}`
        : `${name}: audit chain BROKEN at seq ${v.firstBroken!.seq} (${v.firstBroken!.kind}): ${v.firstBroken!.reason}`;
      return { exitCode: v.ok ? 0 : 1, verification: v, schemaVersion: version, summary, notes };
    });
  } catch (err) {
    return fail(`${name}: could not be read as a case file (${(err as Error).message}); nothing was verified`);
  }
}

export const VERIFY_USAGE = `verify <case-file> [--head erwb-head:<seq>:<hash>] [--signatures every|run-ends]
  Verifies a case file read-only: hash chain, reviewer signatures, state fingerprints; with --head
  also that the chain reaches that head unchanged (a head printed earlier by audit:head).
  Prints the result as JSON on stdout and one line on stderr. Exit 0 verified, 1 broken, 2 bad
  usage, 3 not verifiable (not a case file, newer schema).`;

/** `cli verify …`: parses its arguments, verifies, prints, and answers the exit code. */
export async function runVerifyCommand(args: string[], out: { stdout: (s: string) => void; stderr: (s: string) => void }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { head: { type: 'string' }, signatures: { type: 'string' } } });
  } catch (err) {
    out.stderr(`cli verify: ${(err as Error).message}\n${VERIFY_USAGE}\n`);
    return 2;
  }
  const [path, ...extra] = parsed.positionals;
  const { head, signatures } = parsed.values;
  if (!path || extra.length) {
    out.stderr(`${VERIFY_USAGE}\n`);
    return 2;
  }
  if (head !== undefined && !parseHead(head)) {
    out.stderr(`cli verify: --head ${head} is not of the form erwb-head:<seq>:<64 hex digits> (as printed by audit:head)\n`);
    return 2;
  }
  if (signatures !== undefined && signatures !== 'every' && signatures !== 'run-ends') {
    out.stderr(`cli verify: --signatures must be every or run-ends, not ${signatures}\n`);
    return 2;
  }
  const result = await verifyCaseFile(path, { expectedHead: head, signatures });
  out.stdout(`${JSON.stringify({ ok: result.exitCode === 0, schemaVersion: result.schemaVersion, notes: result.notes, verification: result.verification }, null, 2)}\n`);
  for (const note of result.notes) out.stderr(`note: ${note}\n`);
  out.stderr(`${result.summary}\n`);
  return result.exitCode;
}
