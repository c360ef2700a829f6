import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { applyImages, dirtyImages, everyImage, ndjsonParts, parseImagePart, ensureCapture, forgetDirty, isCapturing, lastSynced, noteServerSeq, pendingMark, recordPending, replicatedTables, serverSeq, startCapture } from './replicaRows';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { CAST } from '../../testing/reviewCase';
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
    expect(() => apply([{ t: 'actor', k: [1], r: { actor_id: 'admin', shoe_size: 44, hat_size: 7 } }])).toThrow('a row image of actor has columns this case file does not: shoe_size, hat_size');
  });

  it('an image of a row present changes only what differs, and an identical one nothing', () => {
    const db = tc.session.db();
    const name = [...everyImage(db)].find((i) => i.t === 'case_meta' && i.r?.key === 'name')!;
    const value = () => db.prepare(`SELECT value FROM case_meta WHERE key = 'name'`).pluck().get();
    apply([{ ...name, r: { ...name.r, value: 'Renamed on the other machine' } }]);
    expect(value()).toBe('Renamed on the other machine');
    apply([{ ...name, r: { ...name.r, value: 'Renamed on the other machine' } }]);
    expect(value()).toBe('Renamed on the other machine');
  });

  it('an image of no row deletes the row, and one of a row already gone changes nothing', () => {
    const db = tc.session.db();
    const meta = [...everyImage(db)].find((i) => i.t === 'case_meta' && i.r?.key === 'description')!;
    const rows = () => db.prepare('SELECT key FROM case_meta ORDER BY key').pluck().all() as string[];
    const before = rows();
    expect(before).toContain('description');
    apply([{ ...meta, r: null }]);
    expect(rows()).toEqual(before.filter((k) => k !== 'description'));
    apply([{ ...meta, r: null }]);
    expect(rows()).toEqual(before.filter((k) => k !== 'description'));
  });
});

describe('row images in parts', () => {
  it('lists every row of every table once, in key order, across pages of a table (rowid and two-column keys)', () => {
    const db = new Database(':memory:');
    try {
      db.exec(`
        CREATE TABLE plain (a TEXT);
        CREATE TABLE keyed (x TEXT, y INTEGER, v TEXT, PRIMARY KEY (x, y)) WITHOUT ROWID;
      `);
      const plain = db.prepare('INSERT INTO plain (a) VALUES (?)');
      const keyed = db.prepare('INSERT INTO keyed (x, y, v) VALUES (?, ?, ?)');
      db.transaction(() => {
        for (let i = 0; i < 4_500; i++) plain.run(`row ${i}`);
        // Keys that tie on their first column across a page boundary (2,000 rows a page).
        for (let i = 0; i < 4_100; i++) keyed.run(`x${String(Math.floor(i / 7)).padStart(4, '0')}`, i % 7, `v${i}`);
      })();
      const images = [...everyImage(db)];
      const plainImages = images.filter((i) => i.t === 'plain');
      expect(plainImages.map((i) => i.k[0])).toEqual(Array.from({ length: 4_500 }, (_, i) => i + 1));
      expect(plainImages[4_499]!.r).toEqual({ a: 'row 4499' });
      const keyedImages = images.filter((i) => i.t === 'keyed');
      expect(keyedImages).toHaveLength(4_100);
      expect(new Set(keyedImages.map((i) => JSON.stringify(i.k))).size).toBe(4_100);
      const sorted = [...keyedImages].sort((p, q) => (p.k[0]! < q.k[0]! ? -1 : p.k[0]! > q.k[0]! ? 1 : (p.k[1] as number) - (q.k[1] as number)));
      expect(keyedImages).toEqual(sorted);
    } finally {
      db.close();
    }
  });

  it('packs images into NDJSON parts of about the size asked, a longer row alone, and reads them back', () => {
    const images = Array.from({ length: 100 }, (_, i) => ({ t: 'plain', k: [i + 1], r: { a: i === 50 ? 'x'.repeat(500) : `row ${i}` } }));
    const parts = [...ndjsonParts(images, 200)];
    expect(parts.length).toBeGreaterThan(10);
    for (const part of parts) expect(part.length <= 200 || part.split('\n').length === 1).toBe(true);
    expect(parts.filter((p) => p.length > 200)).toEqual([JSON.stringify(images[50])]);
    expect(parts.flatMap((p, i) => parseImagePart(p, `part ${i + 1}`))).toEqual(images);
    expect([...ndjsonParts([], 200)]).toEqual([]);
    expect(() => parseImagePart('{"t":"plain","k":[1],"r":null}\n{"t":', 'part 7')).toThrow('line 2 of part 7 is not JSON');
  });
});

describe('capturing writes', () => {
  let tc: TestCase;
  beforeEach(async () => {
    tc = await createTestCase();
  });
  afterEach(() => tc.cleanup());

  const captureTriggers = () => tc.session.db().prepare(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'replica\\_%' ESCAPE '\\'`).pluck().get() as number;
  const dirty = () => tc.session.db().prepare('SELECT tbl FROM replica_dirty ORDER BY change_id').pluck().all() as string[];

  it('a case that is no replica gets no capture triggers', () => {
    ensureCapture(tc.session.db());
    expect(isCapturing(tc.session.db())).toBe(false);
    expect(captureTriggers()).toBe(0);
  });

  it('a replica records every insert and delete of a replicated row, under the key older replicas carry', async () => {
    const db = tc.session.db();
    startCapture(db);
    expect(db.prepare('SELECT key FROM replica_state').pluck().all()).toEqual(['capturing']);
    expect(captureTriggers()).toBe(3 * replicatedTables(db).length);
    await tc.call('evidence:ingest', ingestRequest('ev-a'));
    expect(dirty()).toContain('evidence_revision');
    // A push sends the rows captured so far and forgets them once the server has them.
    const last = db.prepare('SELECT MAX(change_id) FROM replica_dirty').pluck().get() as number;
    const sent = dirtyImages(db);
    expect(sent.throughChange).toBe(last);
    expect([...sent.images].map((i) => i.t)).toContain('evidence_revision');
    db.prepare(`DELETE FROM case_meta WHERE key = 'description'`).run();
    forgetDirty(db, sent.throughChange);
    expect(dirty()).toEqual(['case_meta']);
    expect([...dirtyImages(db).images]).toEqual([{ t: 'case_meta', k: expect.any(Array) as unknown, r: null }]);
  });

  it('remembers the seq it last agreed on with the server, and when', () => {
    const db = tc.session.db();
    expect([serverSeq(db), lastSynced(db)]).toEqual([0, null]);
    const before = Date.now();
    noteServerSeq(db, 42);
    expect(serverSeq(db)).toBe(42);
    expect(Date.parse(lastSynced(db)!)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('provisional actions', () => {
  it('keep their request to take again on a newer head, except one holding a passphrase, at any depth', async () => {
    const tc = await createTestCase();
    try {
      const db = tc.session.db();
      startCapture(db);
      // Receipts written after the mark (an ingest through the channels), then the request under test recorded for them.
      let n = 0;
      const kept = async (request: unknown): Promise<unknown> => {
        const mark = pendingMark(db)!;
        await tc.call('evidence:ingest', ingestRequest(`ev-${(n += 1)}`));
        db.prepare('DELETE FROM replica_pending').run();
        recordPending(db, mark, { actor: 'admin', channel: 'actor:create', request });
        const row = db.prepare('SELECT request FROM replica_pending').pluck().get() as string | null;
        return row === null ? null : JSON.parse(row);
      };
      expect(await kept({ actorId: 'bob', role: 'analyst' })).toEqual({ actorId: 'bob', role: 'analyst' });
      expect(await kept({ actorId: 'bob', passphrase: 'correct horse' })).toBeNull();
      expect(await kept({ actorId: 'bob', admin: { actorId: 'eve', newPassphrase: 'battery staple' } })).toBeNull();
      // Through the channels: a reviewer created with a passphrase is shown to its author to redo, never kept.
      db.prepare('DELETE FROM replica_pending').run();
      await tc.call('actor:create', CAST[0]);
      expect(db.prepare('SELECT channel, request FROM replica_pending').all()).toEqual([{ channel: 'actor:create', request: null }]);
    } finally {
      tc.cleanup();
    }
  });
});
