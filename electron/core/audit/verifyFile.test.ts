import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { openAsAttacker } from '../../testing/tamper';
import { verifyCaseFile } from './verifyFile';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-1@1');
});
afterEach(() => rc.cleanup());

describe('verifyCaseFile', () => {
  it('leaves a file at rest and its folder exactly as they were (SQLite would put -wal and -shm beside a file it reads in place)', async () => {
    rc.session.close();
    const listing = () => readdirSync(rc.dir).sort();
    const before = listing();
    const bytes = readFileSync(rc.casePath);
    expect(before).not.toContain(`${basename(rc.casePath)}-wal`);
    const r = await verifyCaseFile(rc.casePath);
    expect(r).toMatchObject({ exitCode: 0, notes: [] }); // a file of this build's schema: nothing to note
    expect(listing()).toEqual(before);
    expect(readFileSync(rc.casePath).equals(bytes)).toBe(true);
  });

  it('removes its temporary copy afterwards, whether the file verified or not', async () => {
    rc.session.close();
    const scratch = mkdtempSync(join(rc.dir, 'tmp-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch; // os.tmpdir() reads it on each call
    try {
      expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
      expect(readdirSync(scratch)).toEqual([]);
      const db = openAsAttacker(rc.casePath);
      db.prepare("UPDATE claim SET statement = 'edited' WHERE claim_id = 'cl-1'").run();
      db.close();
      expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(1);
      expect(readdirSync(scratch)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('refuses, exit 3 and naming the file, what is not a case file: missing, a folder, another SQLite database, not SQLite at all', async () => {
    const missing = await verifyCaseFile(join(rc.dir, 'gone.sqlite'));
    expect(missing).toEqual({ exitCode: 3, verification: null, schemaVersion: null, summary: 'gone.sqlite: no such file; nothing was verified', notes: [] });
    expect(await verifyCaseFile(rc.dir)).toMatchObject({ exitCode: 3, summary: `${basename(rc.dir)}: not a regular file (a folder, pipe or device); nothing was verified` });
    const other = join(rc.dir, 'other.sqlite');
    const o = new Database(other);
    o.exec('CREATE TABLE t (x)');
    o.close();
    expect(await verifyCaseFile(other)).toMatchObject({ exitCode: 3, summary: 'other.sqlite: not an evidence-review case file; nothing was verified' });
    const text = join(rc.dir, 'notes.txt');
    writeFileSync(text, 'not a database at all, just some notes\n'.repeat(200));
    const r = await verifyCaseFile(text);
    expect(r.exitCode).toBe(3);
    expect(r.summary).toMatch(/^notes\.txt: could not be read as a case file \(.+\); nothing was verified$/);
  });

  it('says when a file is older or newer than this build, and never migrates it', async () => {
    rc.session.close();
    const older = join(rc.dir, 'older.sqlite');
    copyFileSync(rc.casePath, older);
    const o = new Database(older);
    o.exec('DROP TABLE review_vote');
    o.pragma('user_version = 210');
    o.close();
    const r = await verifyCaseFile(older);
    expect(r.exitCode).toBe(0);
    expect(r.notes.join(' ')).toContain('older than this build');
    const check = new Database(older, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(210);
    check.close();

    const newer = join(rc.dir, 'newer.sqlite');
    copyFileSync(rc.casePath, newer);
    const n = new Database(newer);
    n.pragma('user_version = 9999');
    n.close();
    const r2 = await verifyCaseFile(newer);
    expect(r2.exitCode).toBe(3);
    expect(r2.summary).toContain('newer workbench (schema 9999');
  });
});
