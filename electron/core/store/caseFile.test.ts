import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkbenchError } from '../errors';
import { CASE_APPLICATION_ID, createCaseFile, inReadSnapshot, openCaseFile, openReader, schemaVersion, useNativeBinding, writeTransaction } from './caseFile';
import { LATEST_VERSION, MIGRATIONS } from './migrations';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (fn: () => unknown): WorkbenchError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WorkbenchError);
    return err as WorkbenchError;
  }
  throw new Error('expected the call to be refused');
};

describe('writeTransaction takes the write lock before it reads', () => {
  // A service reads, then writes what it read. Were the lock taken at the first write, another
  // process could write in between and this write would fail without waiting (contention.test.ts
  // shows it under load; this shows it deterministically).
  it('no other connection can write between its first read and its first write', () => {
    const path = join(dir, 'locked.case.sqlite');
    const db = createCaseFile(path);
    const other = new Database(path);
    other.pragma('busy_timeout = 0');
    let otherWrite: string | null = null;
    writeTransaction(db, () => {
      db.prepare('SELECT COUNT(*) FROM case_meta').pluck().get();
      try {
        other.prepare(`INSERT INTO case_meta (key, value) VALUES ('intruder', 'x')`).run();
        otherWrite = 'written';
      } catch (err) {
        otherWrite = (err as { code?: string }).code ?? String(err);
      }
      db.prepare(`INSERT INTO case_meta (key, value) VALUES ('mine', 'y')`).run();
    });
    expect(otherWrite).toBe('SQLITE_BUSY');
    expect(db.prepare(`SELECT key FROM case_meta WHERE key IN ('mine', 'intruder')`).pluck().all()).toEqual(['mine']);
    other.close();
    db.close();
  });
});

describe('case file store', () => {
  it('migrates an empty database to the latest version with STRICT tables, WAL and foreign keys', () => {
    const path = join(dir, 'new.case.sqlite');
    const db = createCaseFile(path);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(CASE_APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'").all() as { name: string; sql: string }[];
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['case_meta', 'actor', 'evidence_revision', 'claim_binding', 'audit_receipt']));
    const shadow = /_(data|idx|content|docsize|config)$/;
    for (const t of tables.filter((t) => !shadow.test(t.name))) expect(t.sql, t.name).toMatch(/\)\s*STRICT(\s*,\s*WITHOUT ROWID)?\s*$/);
    db.close();
  });

  it('numbers migrations strictly increasing', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('reopens its own file and keeps the data', () => {
    const path = join(dir, 'a.case.sqlite');
    const db = createCaseFile(path);
    db.prepare("INSERT INTO case_meta (key, value) VALUES ('name', 'kept')").run();
    db.close();
    const again = openCaseFile(path);
    expect(again.prepare("SELECT value FROM case_meta WHERE key = 'name'").get()).toEqual({ value: 'kept' });
    again.close();
  });

  // Exactly one version ahead too: an off-by-one in the refusal (`> LATEST + 1`) passed a suite
  // that only tried files 7 and 210 versions ahead (issue 13).
  it.each([1, 7])('refuses a case file written by a newer version (%i ahead), naming both versions, and leaves it unchanged', (ahead) => {
    const path = join(dir, `future-${ahead}.case.sqlite`);
    createCaseFile(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_VERSION + ahead}`);
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = readFileSync(path);
    const err = refusal(() => openCaseFile(path));
    expect(err.message).toContain(`schema ${LATEST_VERSION + ahead}`);
    expect(err.message).toContain('newer workbench');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it.each([
    ['a text file', Buffer.from('not a database at all\n')],
    ['an empty file', Buffer.alloc(0)],
    ['a truncated SQLite header', Buffer.from('SQLite format 3\u0000\u0010\u0000garbage')],
  ])('refuses %s without modifying it', (_label, bytes) => {
    const path = join(dir, 'x.case.sqlite');
    writeFileSync(path, bytes);
    const err = refusal(() => openCaseFile(path));
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toMatch(/was not opened because/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a SQLite database that is not a case file without modifying it', () => {
    const path = join(dir, 'other.sqlite');
    const other = new Database(path);
    other.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    other.close();
    const before = readFileSync(path);
    const err = refusal(() => openCaseFile(path));
    expect(err.message).toContain('not an evidence-review case file');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a corrupt case file without modifying it', () => {
    const path = join(dir, 'corrupt.case.sqlite');
    const db = createCaseFile(path);
    db.prepare('INSERT INTO case_meta (key, value) VALUES (?, ?)').run('filler', 'x'.repeat(20_000));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(path);
    bytes.fill(0xa5, 4096, bytes.length); // wipe everything after the first page
    writeFileSync(path, bytes);
    const err = refusal(() => openCaseFile(path));
    expect(err.message).toMatch(/damaged|corrupt/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a case file whose pages are damaged, saying what the integrity check found, without modifying it', () => {
    const path = join(dir, 'damaged.case.sqlite');
    const db = createCaseFile(path);
    const { rootpage, size } = db.prepare("SELECT rootpage, (SELECT page_size FROM pragma_page_size) AS size FROM sqlite_master WHERE name = 'case_meta'").get() as { rootpage: number; size: number };
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    // The header still says case file; one table's root page has a page type that does not exist.
    const bytes = readFileSync(path);
    const at = (rootpage - 1) * size;
    bytes[at] = bytes[at]! ^ 0xff;
    writeFileSync(path, bytes);
    const err = refusal(() => openCaseFile(path));
    expect(err.message).toContain('the database is damaged (');
    expect(err.message).toContain(`page ${rootpage}`);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a folder, a device and a pipe, saying which it is', () => {
    const folder = join(dir, 'a-folder.case.sqlite');
    mkdirSync(folder);
    expect(refusal(() => openCaseFile(folder)).message).toBe(`case:open: ${folder} is a folder, not a case file; choose the .case.sqlite file inside it`);
    const fifo = join(dir, 'pipe.case.sqlite');
    execFileSync('mkfifo', [fifo]);
    for (const path of ['/dev/null', fifo]) {
      expect(refusal(() => openCaseFile(path)).message).toBe(`case:open: ${path} is not a regular file (a device, a pipe or a socket); choose a case file`);
    }
  });

  it("refuses another application's database without checkpointing its journal into it", () => {
    // Copied while its writer still held the frames: the journal holds writes the file does not.
    const live = join(dir, 'live.sqlite');
    const writer = new Database(live);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec("CREATE TABLE visits (url TEXT); INSERT INTO visits VALUES ('https://example.org')");
    const other = join(dir, 'other-app.sqlite');
    copyFileSync(live, other);
    copyFileSync(`${live}-wal`, `${other}-wal`);
    writer.close();
    const file = readFileSync(other);
    const journal = readFileSync(`${other}-wal`);
    expect(journal.length).toBeGreaterThan(0);
    expect(refusal(() => openCaseFile(other)).message).toContain('not an evidence-review case file');
    expect(readFileSync(other).equals(file)).toBe(true);
    expect(readFileSync(`${other}-wal`).equals(journal)).toBe(true);
  });

  it('refuses a file whose schema version was lowered by hand, leaving it at that version', () => {
    const path = join(dir, 'lowered.case.sqlite');
    createCaseFile(path).close();
    const raw = new Database(path);
    raw.pragma('user_version = 100');
    raw.close();
    const err = refusal(() => openCaseFile(path));
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toMatch(new RegExp(`^case:open: ${path} says it is at schema 100, but its tables are not \\(upgrading it to \\d+ failed: .+\\); it was left unchanged`));
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(100);
    check.close();
  });

  it('creates no case over anything that exists, saying whether it is a file or something else', () => {
    const path = join(dir, 'taken.case.sqlite');
    writeFileSync(path, 'already here');
    expect(refusal(() => createCaseFile(path))).toMatchObject({ code: 'CONFLICT', message: `case:create: ${path} already exists; open it or choose a new file name` });
    expect(readFileSync(path, 'utf8')).toBe('already here');
    expect(refusal(() => createCaseFile('/dev/null'))).toMatchObject({
      code: 'CONFLICT',
      message: 'case:create: /dev/null exists and is not a regular file; open it or choose a new file name',
    });
  });

  it('creates no case beside a journal already there, and leaves it alone', () => {
    const path = join(dir, 'new.case.sqlite');
    for (const [journal, make] of [
      [`${path}-wal`, (f: string) => mkdirSync(f)],
      [`${path}-shm`, (f: string) => writeFileSync(f, 'left over')],
    ] as const) {
      make(journal);
      expect(refusal(() => createCaseFile(path))).toMatchObject({
        code: 'VALIDATION',
        message: `case:create: ${journal} already exists beside it, and SQLite would take it as the new case's journal; move it away or choose another file name`,
      });
      expect(existsSync(path)).toBe(false);
      expect(existsSync(journal)).toBe(true);
      rmSync(journal, { recursive: true });
    }
  });

  it('makes an in-memory case without touching the disk', () => {
    const db = createCaseFile(':memory:');
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    db.close();
    expect(existsSync(':memory:')).toBe(false);
  });

  it('says why a file could not be created', () => {
    const path = join(dir, `${'x'.repeat(300)}.case.sqlite`);
    expect(refusal(() => createCaseFile(path))).toMatchObject({ code: 'STORAGE', message: `case:create: could not create ${path} (ENAMETOOLONG); choose a folder you can write to` });
  });

  it('names what an empty or non-SQLite file is', () => {
    const empty = join(dir, 'empty.case.sqlite');
    writeFileSync(empty, '');
    expect(refusal(() => openCaseFile(empty)).message).toBe(`case:open: ${empty} was not opened because the file is empty; it was left unchanged`);
    const text = join(dir, 'text.case.sqlite');
    writeFileSync(text, 'a page of notes, saved with the wrong name');
    expect(refusal(() => openCaseFile(text)).message).toBe(`case:open: ${text} was not opened because it is not a SQLite database; it was left unchanged`);
  });

  it('leaves no file descriptor open after refusing a file', () => {
    const path = join(dir, 'text.case.sqlite');
    writeFileSync(path, 'not a database at all, just some text that is long enough');
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i += 1) refusal(() => openCaseFile(path));
    expect(open()).toBe(before);
  });

  it('says what to do when the file does not exist', () => {
    expect(refusal(() => openCaseFile(join(dir, 'missing.case.sqlite'))).code).toBe('NOT_FOUND');
  });

  it('rolls back every migration when one fails, leaving user_version at 0', () => {
    const path = join(dir, 'rollback.case.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE actor (x)'); // collides with migration 0010
    expect(() => {
      db.transaction(() => {
        for (const m of MIGRATIONS) m.up(db);
      })();
    }).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'case_meta'").get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('upgrading an older case file', () => {
  it('refuses one whose rows refer to rows that do not exist, leaving it at its old schema', () => {
    const path = join(dir, 'older.case.sqlite');
    const previous = MIGRATIONS.at(-2)!.version;
    const db = new Database(path);
    db.transaction(() => {
      for (const m of MIGRATIONS.filter((x) => x.version <= previous)) m.up(db);
    })();
    db.pragma(`application_id = ${CASE_APPLICATION_ID}`);
    db.pragma(`user_version = ${previous}`);
    // Written by hand with foreign keys off: a job of a revocation fence that was never made (its fence and its root: two references).
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO outbox_job (fence_id, root_fence_id, phase, created_at_ms) VALUES (999, 999, 'claims', 0)").run();
    db.close();
    const err = refusal(() => openCaseFile(path));
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toBe(
      `case:open: ${path} was left unchanged: upgrading it to schema ${LATEST_VERSION} would leave 2 reference(s) to rows that do not exist (first in outbox_job); its tables were edited by hand. Restore it from a backup or verify it with cli verify`,
    );
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(previous);
    check.close();
  });
});

describe('a reader connection', () => {
  it('can neither write nor create a missing file', () => {
    const path = join(dir, 'read.case.sqlite');
    createCaseFile(path).close();
    const reader = openReader(path);
    try {
      expect(() => reader.prepare("INSERT INTO case_meta (key, value) VALUES ('k', 'v')").run()).toThrow(/readonly/);
    } finally {
      reader.close();
    }
    const missing = join(dir, 'missing.case.sqlite');
    expect(() => openReader(missing)).toThrow();
    expect(existsSync(missing)).toBe(false);
  });

  it('reads one state inside a snapshot and, once it ends, sees what was written meanwhile', async () => {
    const path = join(dir, 'snap.case.sqlite');
    const writer = createCaseFile(path);
    const reader = openReader(path);
    const count = () => (reader.prepare('SELECT COUNT(*) AS n FROM case_meta').get() as { n: number }).n;
    try {
      const before = count();
      const inside = await inReadSnapshot(reader, async () => {
        writer.prepare("INSERT INTO case_meta (key, value) VALUES ('during', 'x')").run();
        await Promise.resolve();
        return count();
      });
      expect(inside).toBe(before);
      expect(reader.inTransaction).toBe(false);
      expect(count()).toBe(before + 1);
    } finally {
      reader.close();
      writer.close();
    }
  });
});

describe('the native binding', () => {
  // Electron loads better-sqlite3 built for its own ABI from a path it names (electron/main);
  // every connection must use it, or Electron would load Node's build and fail to open any case.
  it('a named binding is the one every connection loads, and clearing it goes back to the default', () => {
    const path = join(dir, 'binding.case.sqlite');
    createCaseFile(path).close();
    const missing = join(dir, 'no-such-build', 'better_sqlite3.node');
    useNativeBinding(missing);
    try {
      expect(() => openCaseFile(path)).toThrow(/no-such-build/);
    } finally {
      useNativeBinding(undefined);
    }
    openCaseFile(path).close();
  });
});
