import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { allReceipts, openAsAttacker, rehashFrom, resignAll } from '../../testing/tamper';
import { verifyChain, verifyChainAsync } from './verify';

/** What verify names when a file breaks in more than one place, and how it words each break. */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-1@1');
});
afterEach(() => rc.cleanup());

describe('which break is reported when there are several', () => {
  const seqOf = (db: Database.Database, action: string, target: string): number =>
    db.prepare('SELECT MIN(seq) FROM audit_receipt WHERE action = ? AND targets LIKE ?').pluck().get(action, `%"${target}"%`) as number;

  it('names a gap in seq by what was expected and what was found', () => {
    const db = openAsAttacker(rc.casePath);
    const middle = allReceipts(db).at(-2)!.seq;
    db.prepare('DELETE FROM audit_receipt WHERE seq = ?').run(middle);
    db.close();
    expect(verifyChain(rc.session.db()).firstBroken).toEqual({
      seq: middle,
      kind: 'chain',
      reason: `expected seq ${middle} but found ${middle + 1}: a receipt was removed, inserted or reordered`,
    });
  });

  it('names a receipt that does not point at its predecessor by the seq it should point at', () => {
    const db = openAsAttacker(rc.casePath);
    const last = allReceipts(db).at(-1)!;
    db.prepare('UPDATE audit_receipt SET prev_hash = ? WHERE seq = ?').run('0'.repeat(64), last.seq);
    db.close();
    expect(verifyChain(rc.session.db()).firstBroken).toEqual({ seq: last.seq, kind: 'chain', reason: `prev_hash does not match the hash of seq ${last.seq - 1}` });
  });

  it('still verifies against a head taken before the chain grew, and names the first missing receipt when the tail was cut', async () => {
    const earlier = (await rc.call('audit:head', {})).head;
    const earlierSeq = Number(earlier.split(':')[1]);
    await rc.claim('cl-2');
    await rc.claim('cl-3');
    expect(verifyChain(rc.session.db(), { expectedHead: earlier })).toMatchObject({ ok: true, firstBroken: null, length: earlierSeq + 2 });
    const db = openAsAttacker(rc.casePath);
    db.prepare('DELETE FROM audit_receipt WHERE seq > ?').run(earlierSeq - 2);
    db.close();
    expect(verifyChain(rc.session.db(), { expectedHead: earlier }).firstBroken).toEqual({
      seq: earlierSeq - 1,
      kind: 'head',
      reason: `the chain ends at seq ${earlierSeq - 2} but the expected head is seq ${earlierSeq}: receipts ${earlierSeq - 1}..${earlierSeq} are missing (the tail was truncated)`,
    });
  });

  it('holds a rewritten chain to the expected head, naming both hashes by their first 12 digits; a head at seq 0 expects nothing', async () => {
    const head = (await rc.call('audit:head', {})).head;
    const [, seqText, hash] = head.split(':') as [string, string, string];
    expect(verifyChain(rc.session.db(), { expectedHead: `erwb-head:0:${'0'.repeat(64)}` })).toMatchObject({ ok: true, firstBroken: null });
    const db = openAsAttacker(rc.casePath);
    resignAll(db, rc.session, (r) => (r.seq === 2 ? { ...r, salt: r.salt!.replace(/^./, (c) => (c === '0' ? '1' : '0')) } : r));
    const rewritten = db.prepare('SELECT hash FROM audit_receipt WHERE seq = ?').pluck().get(Number(seqText)) as string;
    db.close();
    expect(verifyChain(rc.session.db()).ok).toBe(true);
    const expected = {
      seq: Number(seqText),
      kind: 'head',
      reason: `seq ${seqText} has hash ${rewritten.slice(0, 12)}…, not the expected head's ${hash.slice(0, 12)}…: the chain was rewritten at or before seq ${seqText}`,
    };
    expect(verifyChain(rc.session.db(), { expectedHead: head }).firstBroken).toEqual(expected);
    expect((await verifyChainAsync(rc.session.db(), { expectedHead: head })).firstBroken).toEqual(expected);
  });

  it('names the earliest of many bad signatures checked at once on the checking threads', async () => {
    const db = openAsAttacker(rc.casePath);
    const rows = allReceipts(db);
    // Re-hashed from seq 3 without the keys: every signature from there on fails, in one batch.
    db.prepare('UPDATE audit_receipt SET signature = ? WHERE seq = 3').run(rows[4]!.signature);
    rehashFrom(db, 3);
    db.close();
    expect((await verifyChainAsync(rc.session.db(), { signatures: 'every' })).firstBroken).toMatchObject({ seq: 3, kind: 'signature' });
  });

  it('names a signature that is not 64 bytes of base64 as bad, on the checking threads as on this one', async () => {
    const db = openAsAttacker(rc.casePath);
    const last = allReceipts(db).at(-1)!;
    db.prepare('UPDATE audit_receipt SET signature = ? WHERE seq = ?').run('not a signature', last.seq);
    db.close();
    for (const signatures of ['every', 'run-ends'] as const) {
      const expected = { seq: last.seq, kind: 'signature', reason: expect.stringContaining('does not verify') as unknown };
      expect(verifyChain(rc.session.db(), { signatures }).firstBroken).toMatchObject(expected);
      expect((await verifyChainAsync(rc.session.db(), { signatures })).firstBroken).toMatchObject(expected);
    }
  });

  it('names the earliest: a binding edited at its receipt before a later receipt that breaks the chain', async () => {
    await rc.claim('cl-2');
    const db = openAsAttacker(rc.casePath);
    const bindSeq = seqOf(db, 'claim:bind', 'claim:cl-1');
    const last = allReceipts(db).at(-1)!;
    expect(last.seq).toBeGreaterThan(bindSeq);
    db.prepare("UPDATE claim_binding SET rationale = 'edited behind the receipt' WHERE claim_id = 'cl-1'").run();
    db.prepare("UPDATE audit_receipt SET at = '2020-01-01T00:00:00.000Z' WHERE seq = ?").run(last.seq);
    db.close();
    expect(verifyChain(rc.session.db()).firstBroken).toMatchObject({ seq: bindSeq, kind: 'state', reason: expect.stringContaining('rationale or author') as unknown });
  });

  it('names a bad signature on the last receipt before a dropped table found after it', () => {
    const db = openAsAttacker(rc.casePath);
    const last = allReceipts(db).at(-1)!;
    // The last receipt has no successor whose hash covers its signature: only the signature tells.
    const forged = Buffer.from(last.signature!, 'base64');
    forged[0] = (forged[0] ?? 0) ^ 0xff;
    db.prepare('UPDATE audit_receipt SET signature = ? WHERE seq = ?').run(forged.toString('base64'), last.seq);
    db.exec('DROP TABLE review_vote');
    db.close();
    for (const signatures of ['every', 'run-ends'] as const) {
      expect(verifyChain(rc.session.db(), { signatures }).firstBroken).toMatchObject({ seq: last.seq, kind: 'signature' });
    }
  });

  it('names the chain, not the state, when both break at the same seq (a dropped table is found where the chain stops)', () => {
    const db = openAsAttacker(rc.casePath);
    const last = allReceipts(db).at(-1)!;
    db.prepare("UPDATE audit_receipt SET at = '2020-01-01T00:00:00.000Z' WHERE seq = ?").run(last.seq);
    db.exec('DROP TABLE review_vote');
    db.close();
    const v = verifyChain(rc.session.db());
    expect(v.length).toBe(last.seq - 1);
    expect(v.firstBroken).toMatchObject({ seq: last.seq, kind: 'chain', reason: expect.stringContaining('hash does not cover the stored receipt') as unknown });
  });

  it('names the chain, not the signature, when one receipt breaks both (unparseable targets, re-hashed without the key)', () => {
    const db = openAsAttacker(rc.casePath);
    const last = allReceipts(db).at(-1)!;
    db.prepare("UPDATE audit_receipt SET targets = '\"not a list\"' WHERE seq = ?").run(last.seq);
    rehashFrom(db, last.seq);
    db.close();
    const v = verifyChain(rc.session.db(), { signatures: 'every' });
    expect(v.firstBroken).toEqual({ seq: last.seq, kind: 'chain', reason: 'targets or artifact digests are not valid JSON' });
  });
});

describe("rows that break the file's own constraints, written with them off", () => {
  it('names a row that refers to nothing', () => {
    const db = openAsAttacker(rc.casePath);
    const { lastInsertRowid } = db
      .prepare(`INSERT INTO evidence_transition (revision_id, from_state, to_state, reason, actor, at) VALUES ('ev-nothing@1', NULL, 'INGESTED', 'forged', 'admin', '2026-11-20T00:00:00.000Z')`)
      .run();
    db.close();
    const broken = verifyChain(rc.session.db()).firstBroken;
    expect(broken?.reason).toBe(
      `the file's own constraints: row ${lastInsertRowid} of evidence_transition refers to a row of evidence_revision that does not exist: it was changed without a receipt, or receipts were removed from the end of the chain`,
    );
  });

  it('names a table whose rows break a CHECK, even read through a connection that ignores them', async () => {
    // Revoking bound evidence opens a convergence job; its phase is one of two.
    await rc.call('evidence:transition', { revisionId: 'ev-1@1', to: 'REVOKED', reason: 'the source retracted it' });
    const db = openAsAttacker(rc.casePath);
    expect(db.prepare(`UPDATE outbox_job SET phase = 'everything'`).run().changes).toBeGreaterThan(0);
    expect(verifyChain(db).firstBroken?.reason).toMatch(/^the file's own constraints: the file breaks its schema \(CHECK constraint failed in outbox_job\)/);
    expect(db.pragma('ignore_check_constraints', { simple: true })).toBe(1);
    db.close();
  });
});

describe('outbox jobs no receipt accounts for', () => {
  it('names a job added to a fence that exists, every constraint respected (it would block the gate and have the worker converge again)', async () => {
    await rc.call('evidence:transition', { revisionId: 'ev-1@1', to: 'REVOKED', reason: 'the source retracted it' });
    const db = openAsAttacker(rc.casePath);
    db.pragma('ignore_check_constraints = OFF');
    db.pragma('foreign_keys = ON');
    const { lastInsertRowid } = db
      .prepare(`INSERT INTO outbox_job (fence_id, root_fence_id, phase, status, created_at_ms) SELECT fence_id, root_fence_id, 'claims', 'OPEN', created_at_ms FROM outbox_job LIMIT 1`)
      .run();
    db.close();
    expect(verifyChain(rc.session.db()).firstBroken?.reason).toMatch(
      new RegExp(`^revocation fences and their jobs: outbox job ${lastInsertRowid} of fence \\d+ is no fence's first job and no convergence's next`),
    );
  });
});
