import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { allImages, applyImages, replicatedTables } from './replicaRows';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';

describe('the tables a replica carries, and the key of each row', () => {
  it('a rowid-less table is keyed by its primary key in key order, not column order; others by rowid', () => {
    const db = new Database(':memory:');
    try {
      db.exec(`
        CREATE TABLE plain (a TEXT, b TEXT);
        CREATE TABLE keyed (first TEXT, second TEXT, third TEXT, PRIMARY KEY (third, first)) WITHOUT
          ROWID;
        CREATE VIRTUAL TABLE search USING fts5(body);
        CREATE TABLE notes (body TEXT DEFAULT 'CREATE VIRTUAL TABLE x');
      `);
      const shapes = Object.fromEntries(replicatedTables(db).map((t) => [t.name, t.key]));
      // The virtual table and the tables it keeps (search_data, search_idx, …) are derived; a table
      // whose text only mentions one is not virtual.
      expect(shapes).toEqual({ plain: ['rowid'], keyed: ['third', 'first'], notes: ['rowid'] });
    } finally {
      db.close();
    }
  });

  it('on a case: the copy bands and computation inputs by their two-column keys', async () => {
    const tc = await createTestCase();
    try {
      const keys = Object.fromEntries(replicatedTables(tc.session.db()).map((t) => [t.name, t.key]));
      expect(keys.copy_band).toEqual(['bucket', 'sig_id']);
      expect(keys.computation_input).toEqual(['revision_id', 'computation_id']);
      expect(keys.audit_receipt).toBeUndefined();
    } finally {
      tc.cleanup();
    }
  });
});

describe('applying row images', () => {
  let tc: TestCase;
  beforeEach(async () => {
    tc = await createTestCase();
    await tc.call('evidence:ingest', ingestRequest('ev-a'));
  });
  afterEach(() => tc.cleanup());

  const apply = (images: Parameters<typeof applyImages>[1]) => {
    const db = tc.session.db();
    db.transaction(() => applyImages(db, images))();
  };

  it('runs only inside the pull transaction', () => {
    expect(() => applyImages(tc.session.db(), [])).toThrow('applyImages must run inside the pull transaction');
  });

  it('refuses an image of a table this file does not replicate, of the wrong key width, or with unknown columns', () => {
    expect(() => apply([{ t: 'audit_receipt', k: [1], r: null }])).toThrow('a row image names table audit_receipt, which this case file does not replicate');
    expect(() => apply([{ t: 'copy_band', k: [1], r: null }])).toThrow('a row image of copy_band has a key of 1 values, not 2');
    expect(() => apply([{ t: 'actor', k: [1], r: { actor_id: 'admin', shoe_size: 44 } }])).toThrow('a row image of actor has columns this case file does not: shoe_size');
  });

  it('an image of no row deletes the row, and one of a row already gone changes nothing', () => {
    const db = tc.session.db();
    const meta = allImages(db).find((i) => i.t === 'case_meta' && i.r?.key === 'description')!;
    const rows = () => db.prepare('SELECT key FROM case_meta ORDER BY key').pluck().all() as string[];
    const before = rows();
    expect(before).toContain('description');
    apply([{ ...meta, r: null }]);
    expect(rows()).toEqual(before.filter((k) => k !== 'description'));
    apply([{ ...meta, r: null }]);
    expect(rows()).toEqual(before.filter((k) => k !== 'description'));
  });
});
