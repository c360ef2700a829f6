import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import type { SigningKey } from '../core/audit/keys';
import { chainHash, GENESIS_HASH, receiptHashBody, signedMessage, type ReceiptRow } from '../core/audit/receipts';
import { StoredReceiptFacts } from '../core/audit/stateChecks';
import type { Seat } from '../core/session';
import { createReviewCase } from './reviewCase';
import { TEST_PASSPHRASE, testKeyOf } from './testCase';

/**
 * Test helper (not a test): builds a case with a realistic chain through the channels, and edits
 * case files the way an attacker with file access would: a raw connection, triggers dropped,
 * CHECK constraints off, but no reviewer's private key.
 */
export async function buildRealisticCase(): Promise<{ path: string; cleanup: () => void; head: string }> {
  const rc = await createReviewCase();
  const revisions: string[] = [];
  for (let i = 0; i < 40; i++) revisions.push(await rc.evidence(`ev-${i}`, { group: `g${i % 13}` }));
  const checklist = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
  for (let c = 0; c < 24; c++) {
    const claimId = await rc.claim(`cl-${c}`, { author: c % 3 === 0 ? 'alice' : 'erin', quorumSize: c % 4 === 0 ? 3 : null });
    for (let b = 0; b < 3; b++) await rc.bind(claimId, revisions[(c * 3 + b) % revisions.length]!, b === 2 && c % 5 === 0 ? 'REFUTES' : 'FULL_SUPPORT');
    if (c % 4 === 0) {
      const { basis } = await rc.call('review:get', { claimId });
      for (const [k, voter] of ['bob', 'carol', 'dave'].entries()) {
        rc.as(voter);
        await rc.call('review:vote', { claimId, basis, refuted: k === 2 && c % 8 === 0, checklist, reason: `vote ${k}` });
      }
    }
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId, verdict: c % 6 === 0 ? 'REFUTED' : 'SUPPORTED', rationale: `rationale ${c}` });
    rc.as('carol');
    if (c % 7 === 3) await rc.call('decision:reject', { decisionId: d.decisionId, reason: 'rationale too thin' });
    else await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    rc.as('admin');
  }
  for (let i = 0; i < 6; i++) {
    await rc.call('evidence:transition', { revisionId: revisions[30 + i]!, to: 'DISPUTED', reason: `conflicting telemetry ${i}` });
  }
  await rc.call('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'dave', reason: 'lost laptop' });
  rc.as('dave');
  await rc.call('claim:create', { claimId: 'cl-last', statement: 'after dave got a new key', tenant: 'acme', classification: 'internal' });
  rc.as('admin');
  const head = (await rc.call('audit:head', {})).head;
  // Closing checkpoints the WAL: the case is one self-contained file, as when it is carried away.
  rc.session.close();
  return { path: rc.casePath, cleanup: () => rc.cleanup(), head };
}

/** A read-write connection with every trigger dropped and CHECK constraints ignored. */
export function openAsAttacker(path: string): Database.Database {
  const db = new Database(path);
  for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string }[]) {
    db.exec(`DROP TRIGGER "${name}"`);
  }
  db.pragma('ignore_check_constraints = ON');
  db.pragma('foreign_keys = OFF');
  return db;
}

export const allReceipts = (db: Database.Database): ReceiptRow[] => db.prepare('SELECT * FROM audit_receipt ORDER BY seq').all() as ReceiptRow[];

/** A copy of the case file beside it, edited as an attacker would; returns the copy's path. */
export function tamperedCopy(path: string, edit: (db: Database.Database) => void): string {
  const copy = `${path}.${Math.random().toString(36).slice(2)}.sqlite`;
  copyFileSync(path, copy);
  const db = openAsAttacker(copy);
  try {
    edit(db);
  } finally {
    db.close();
  }
  return copy;
}

/** The facts verify hands the state checks for the latest receipt of `action` naming `target`. */
export function receiptFacts(db: Database.Database, action: string, target: string): StoredReceiptFacts {
  const row = allReceipts(db)
    .filter((r) => r.action === action && (JSON.parse(r.targets) as string[]).includes(target))
    .at(-1);
  if (!row) throw new Error(`no ${action} receipt names ${target}`);
  const artifacts = JSON.parse(row.artifact_digests) as Record<string, string>;
  return new StoredReceiptFacts(row.seq, row.at, true, row.action, row.actor, JSON.parse(row.targets) as string[], row.body, row.post_state_fp, artifacts);
}

/**
 * Recomputes prev_hash and hash from `fromSeq` to the end, keeping the signatures: what anyone can
 * do after an edit without a private key. The result is a consistent hash chain whose signatures
 * no longer match.
 */
export function rehashFrom(db: Database.Database, fromSeq: number): void {
  const rows = allReceipts(db);
  let prevHash = GENESIS_HASH;
  let prevSig: string | null = null;
  const update = db.prepare('UPDATE audit_receipt SET prev_hash = ?, hash = ? WHERE seq = ?');
  for (const r of rows) {
    if (r.seq >= fromSeq) {
      const hash = chainHash(prevHash, receiptHashBody({ ...r, prev_signature: prevSig }));
      update.run(prevHash, hash, r.seq);
      r.hash = hash;
    }
    prevHash = r.hash;
    prevSig = r.signature;
  }
}

/** Moves receipts with seq >= `from` up by one, leaving `from` free for an inserted row. */
export function shiftUp(db: Database.Database, from: number): void {
  db.prepare('UPDATE audit_receipt SET seq = seq + 1000000 WHERE seq >= ?').run(from);
  db.prepare('UPDATE audit_receipt SET seq = seq - 999999 WHERE seq >= 1000000').run();
}

/**
 * Rewrites every receipt through `edit`, then re-hashes and re-signs the whole chain with each
 * reviewer's real key: what an insider holding every key could do. The chain verifies; only an
 * expected head (or a row a receipt recorded) can tell.
 */
export function resignAll(db: Database.Database, seat: Seat, edit: (r: ReceiptRow) => ReceiptRow): void {
  const keys = new Map<string, SigningKey>();
  const keyOf = (actorId: string) => keys.get(actorId) ?? keys.set(actorId, testKeyOf(seat, actorId)).get(actorId)!;
  const rows = allReceipts(db);
  let prevHash = rows[0]!.prev_hash;
  let prevSig: string | null = null;
  const update = db.prepare('UPDATE audit_receipt SET salt = ?, at = ?, prev_hash = ?, hash = ?, signature = ? WHERE seq = ?');
  for (const r of rows) {
    const row = edit(r);
    const hash = chainHash(prevHash, receiptHashBody({ ...row, prev_signature: prevSig }));
    const signature = keyOf(r.actor).sign(signedMessage(hash));
    update.run(row.salt, row.at, prevHash, hash, signature, r.seq);
    prevHash = hash;
    prevSig = signature;
  }
}
