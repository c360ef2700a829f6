import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { WorkbenchError } from '../errors';
import { LATEST_VERSION, MIGRATIONS } from './migrations';
import { ensureCapture } from './replicaRows';

export type CaseDb = Database.Database;

/** 'ERWB' — marks a SQLite file as an evidence-review case file (PRAGMA application_id). */
export const CASE_APPLICATION_ID = 0x45525742;
const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Where Electron keeps a better-sqlite3 build for its own ABI; Node uses the default build. */
let nativeBinding: string | undefined;
export function useNativeBinding(path: string | undefined): void {
  nativeBinding = path;
}

function connect(path: string, options: Database.Options = {}): CaseDb {
  return withStatementCache(new Database(path, nativeBinding ? { ...options, nativeBinding } : options));
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * db.prepare compiles its SQL on every call, tens of microseconds that services paid on every
 * statement of every request (a fifth of a bundle import's time). Each connection keeps the
 * statements it compiled; a statement handed out again has its result modes (pluck, raw, expand)
 * reset, and one still being iterated is never handed out twice (a fresh one is compiled).
 */
function withStatementCache(db: CaseDb): CaseDb {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    const cached = cache.get(sql);
    if (cached === undefined) {
      const fresh = compile(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      cache.set(sql, fresh);
      return fresh;
    }
    if (cached.busy) return compile(sql);
    if (cached.reader) cached.pluck(false).raw(false).expand(false);
    return cached;
  }) as CaseDb['prepare'];
  return db;
}

/**
 * A read-only connection of its own on an open case file, for a long read that must see one
 * state while the workbench goes on writing through its own connection (WAL keeps the snapshot).
 */
export function openReader(path: string): CaseDb {
  // Stryker disable next-line BooleanLiteral: a read-only connection cannot create the file either, so a missing one fails alike
  const db = connect(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Runs `read` in one read transaction on `db`: every statement, across awaits, sees the state of
 * the moment it began (DESIGN §3.7: verification is one read snapshot). `db` must be a connection
 * nobody else writes through, such as openReader's.
 */
export async function inReadSnapshot<T>(db: CaseDb, read: () => Promise<T>): Promise<T> {
  db.exec('BEGIN');
  try {
    // A deferred transaction takes its snapshot at the first read.
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    return await read();
  } finally {
    db.exec('COMMIT');
  }
}

/**
 * Runs `read` in one (deferred) read transaction on the case's own connection, so every statement
 * sees one state of the case: an export or report never mixes rows from before and after a write
 * another process made meanwhile. Synchronous, so nothing else of this process runs in between.
 */
export function readTransaction<T>(db: CaseDb, read: () => T): T {
  return db.transaction(read).deferred();
}

/**
 * Runs `write` as one transaction that takes SQLite's write lock before it reads anything
 * (BEGIN IMMEDIATE): a service reads, then writes what it read, and a deferred transaction would
 * fail at its first write when another process wrote meanwhile, without waiting. Taken up front,
 * the lock waits busy_timeout for another writer to finish; if it is still busy the call answers
 * BUSY (errors.ts). Nested inside another write it is a savepoint of that one.
 */
export function writeTransaction<T>(db: CaseDb, write: () => T): T {
  return db.transaction(write).immediate();
}

function configure(db: CaseDb): void {
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
}

function readHeader(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/**
 * Looks at a file without writing to it and says why it cannot be opened as a case, or null.
 * Runs before any read-write connection exists, so refusing a file never modifies it.
 */
function inspect(path: string): { reason: string } | { userVersion: number } {
  if (statSync(path).size === 0) return { reason: 'the file is empty' };
  if (readHeader(path) !== SQLITE_HEADER) return { reason: 'it is not a SQLite database' };
  let probe: CaseDb | undefined;
  try {
    // Stryker disable next-line BooleanLiteral: fileMustExist is equivalent but for a file removed since the checks above (readonly is tested)
    probe = connect(path, { readonly: true, fileMustExist: true });
    const appId = probe.pragma('application_id', { simple: true }) as number;
    const userVersion = probe.pragma('user_version', { simple: true }) as number;
    if (appId !== CASE_APPLICATION_ID) {
      return { reason: 'it is a SQLite database but not an evidence-review case file' };
    }
    const check = probe.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') return { reason: `the database is damaged (${check})` };
    return { userVersion };
  } catch (err) {
    return { reason: `the database is unreadable or corrupt (${(err as Error).message})` };
  } finally {
    probe?.close();
  }
}

/** The -wal and -shm files SQLite keeps beside a case file. */
const sidecars = (path: string) => [`${path}-wal`, `${path}-shm`];

/**
 * Removes a case file that could not be made, with its journal, so that no half-made case is left
 * behind. Only for a file this process made (or a build of its own that was cut off): createCaseFile
 * refuses a name with a journal already beside it, so a journal removed here is one it made.
 */
export function removeUnfinishedCase(path: string): void {
  for (const f of [path, ...sidecars(path)]) rmSync(f, { force: true });
}

/**
 * Runs `inspectFile`, then removes the -wal/-shm files it made if the file is refused: looking at a
 * file (even read-only) lets SQLite create them, and a refused file is left exactly as it was.
 */
function inspectLeavingNothing(path: string): ReturnType<typeof inspect> {
  const before = sidecars(path).filter((f) => existsSync(f));
  const found = inspect(path);
  // Stryker disable next-line ConditionalExpression: equivalent; on success the connection that follows makes them again
  if ('reason' in found) for (const f of sidecars(path)) if (!before.includes(f)) rmSync(f, { force: true });
  return found;
}

/** Why this path cannot be opened (or created) as a case file by this process, or null. */
function unusablePath(path: string, action: 'case:open' | 'case:create'): string | null {
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return `the folder ${folder} does not exist; create it first or choose another folder`;
  if (action === 'case:open') {
    const st = statSync(path);
    if (st.isDirectory()) return `${path} is a folder, not a case file; choose the .case.sqlite file inside it`;
    if (!st.isFile()) return `${path} is not a regular file (a device, a pipe or a socket); choose a case file`;
    // Stryker disable next-line ConditionalExpression,StringLiteral: tested as an unprivileged user (host/oddFiles.test.ts); a mutation run is root, and root may write anything
    if (!writable(path)) return `${path} is read-only; make it writable to work on it (a case's every change is written to it), or check it with cli verify, which only reads`;
  }
  if (action === 'case:create') {
    // SQLite would take a journal already there as the new case's own (or fail on it), and a
    // failed creation would then remove a file it never made.
    const stale = sidecars(path).find((f) => existsSync(f));
    if (stale) return `${stale} already exists beside it, and SQLite would take it as the new case's journal; move it away or choose another file name`;
  }
  // SQLite keeps its journal (-wal, -shm) next to the case file, so the folder must take new files.
  // Stryker disable next-line ConditionalExpression,StringLiteral: tested as an unprivileged user (host/oddFiles.test.ts); a mutation run is root, and root may write anything
  if (!writable(folder)) return `the folder ${folder} is read-only, and SQLite keeps its journal next to the case file; copy the case to a writable folder`;
  return null;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    // Stryker disable next-line BooleanLiteral: tested as an unprivileged user (host/oddFiles.test.ts); a mutation run is root, and root may write anything
    return false;
  }
}

function migrate(db: CaseDb, from: number, path: string): void {
  const pending = MIGRATIONS.filter((m) => m.version > from);
  if (pending.length === 0) return;
  // All pending migrations in one transaction: a failure leaves the file at its old version.
  // Foreign keys are off while they run so a migration can rebuild a referenced table (SQLite's
  // documented ALTER procedure); they are checked before the commit, and switched back on after.
  db.pragma('foreign_keys = OFF');
  try {
    writeTransaction(db, () => {
      for (const m of pending) {
        try {
          m.up(db);
        } catch (err) {
          // Stryker disable next-line ConditionalExpression,LogicalOperator: reachable only when a new file's first migration fails (no migration throws WorkbenchError), as on a full disk while creating, which no test in this process can cause
          if (err instanceof WorkbenchError || from === 0) throw err;
          // A file whose user_version was lowered, or whose tables were changed by hand: its tables
          // are not what its version says. The transaction rolls back; the file stays as it was.
          throw new WorkbenchError(
            'VALIDATION',
            `case:open: ${path} says it is at schema ${from}, but its tables are not (upgrading it to ${m.version} failed: ${(err as Error).message}); it was left unchanged. Restore it from a backup or verify it with cli verify`,
          );
        }
      }
      const violations = db.pragma('foreign_key_check') as { table: string }[];
      if (violations.length > 0) {
        throw new WorkbenchError(
          'VALIDATION',
          `case:open: ${path} was left unchanged: upgrading it to schema ${LATEST_VERSION} would leave ${violations.length} reference(s) to rows that do not exist (first in ${violations[0]!.table}); its tables were edited by hand. Restore it from a backup or verify it with cli verify`,
        );
      }
      db.pragma(`user_version = ${LATEST_VERSION}`);
      db.pragma(`application_id = ${CASE_APPLICATION_ID}`);
    });
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/** Opens an existing case file, migrating it forward. Refuses non-case, corrupt and newer files. */
export function openCaseFile(path: string): CaseDb {
  if (!existsSync(path)) {
    throw new WorkbenchError('NOT_FOUND', `case:open: no file at ${path}; create a case or pick another file`);
  }
  const unusable = unusablePath(path, 'case:open');
  if (unusable) throw new WorkbenchError('VALIDATION', `case:open: ${unusable}`);
  const found = inspectLeavingNothing(path);
  if ('reason' in found) {
    throw new WorkbenchError('VALIDATION', `case:open: ${path} was not opened because ${found.reason}; it was left unchanged`);
  }
  if (found.userVersion > LATEST_VERSION) {
    throw new WorkbenchError(
      'VALIDATION',
      `case:open: ${path} was written by a newer workbench (schema ${found.userVersion}, this build knows up to ${LATEST_VERSION}); update the workbench to open it`,
    );
  }
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent but for a file removed since it was inspected above
  const db = connect(path, { fileMustExist: true });
  try {
    configure(db);
    migrate(db, found.userVersion, path);
    // A team replica captures writes to every replicated table, including any a migration just added.
    ensureCapture(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * Creates a new case file (or an in-memory one for ':memory:'), schema at the latest version. The
 * file is created exclusively (it must not exist, checked and created in one step at the exact
 * path that is then opened), readable by its owner only, since it holds evidence; a file that
 * fails to become a case is removed again.
 */
export function createCaseFile(path: string): CaseDb {
  if (path === ':memory:') {
    const db = connect(path);
    configure(db);
    migrate(db, 0, path);
    return db;
  }
  const unusable = unusablePath(path, 'case:create');
  if (unusable) throw new WorkbenchError('VALIDATION', `case:create: ${unusable}`);
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      const what = statSync(path).isFile() ? 'already exists' : 'exists and is not a regular file';
      throw new WorkbenchError('CONFLICT', `case:create: ${path} ${what}; open it or choose a new file name`);
    }
    throw new WorkbenchError('STORAGE', `case:create: could not create ${path} (${code ?? (err as Error).message}); choose a folder you can write to`);
  }
  let db: CaseDb | undefined;
  try {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent but for a file removed since it was created above
    db = connect(path, { fileMustExist: true });
    configure(db);
    migrate(db, 0, path);
    return db;
  } catch (err) {
    db?.close();
    removeUnfinishedCase(path);
    throw err;
  }
}

export function schemaVersion(db: CaseDb): number {
  return db.pragma('user_version', { simple: true }) as number;
}
