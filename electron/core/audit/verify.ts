import type { ChainVerification, ReceiptView } from '../../../shared/ipc/channels/audit';
import type { CaseDb } from '../store/caseFile';
import { chainHash, GENESIS_HASH, receiptHashBody, type ReceiptRow } from './receipts';

export const formatHead = (seq: number, hash: string): string => `erwb-head:${seq}:${hash}`;

/**
 * Recomputes the whole chain in seq order and names the first receipt that does not fit: a gap
 * in seq (deletion or reordering), a prev_hash that is not the previous hash, or a hash that does
 * not cover its own body (an edit). Streams rows so a long chain needs constant memory.
 */
export function verifyChain(db: CaseDb): ChainVerification {
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let length = 0;
  const rows = db.prepare('SELECT * FROM audit_receipt ORDER BY seq').iterate() as IterableIterator<ReceiptRow>;
  for (const row of rows) {
    const broken = (reason: string): ChainVerification => ({
      ok: false,
      length,
      head: length ? formatHead(expectedSeq - 1, prevHash) : null,
      firstBroken: { seq: Math.min(row.seq, expectedSeq), reason },
    });
    if (row.seq !== expectedSeq) {
      return broken(`expected seq ${expectedSeq} but found ${row.seq}: a receipt was removed, inserted or reordered`);
    }
    if (row.prev_hash !== prevHash) return broken(`prev_hash does not match the hash of seq ${expectedSeq - 1}`);
    let computed: string;
    try {
      computed = chainHash(row.prev_hash, receiptHashBody(row));
    } catch (err) {
      return broken(`receipt body is not valid canonical JSON (${(err as Error).message})`);
    }
    if (computed !== row.hash) return broken('hash does not cover the stored receipt: a field was edited');
    prevHash = row.hash;
    expectedSeq += 1;
    length += 1;
  }
  return { ok: true, length, head: length ? formatHead(length, prevHash) : null, firstBroken: null };
}

export function chainHead(db: CaseDb): { seq: number; hash: string; head: string } {
  const last = db.prepare('SELECT seq, hash FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as
    | { seq: number; hash: string }
    | undefined;
  const seq = last?.seq ?? 0;
  const hash = last?.hash ?? GENESIS_HASH;
  return { seq, hash, head: formatHead(seq, hash) };
}

export function listReceipts(db: CaseDb, limit: number, beforeSeq?: number): ReceiptView[] {
  const rows = db
    .prepare('SELECT * FROM audit_receipt WHERE seq < ? ORDER BY seq DESC LIMIT ?')
    .all(beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as ReceiptRow[];
  return rows.map((r) => ({
    seq: r.seq,
    at: r.at,
    actor: r.actor,
    action: r.action,
    targets: JSON.parse(r.targets) as string[],
    body: JSON.parse(r.body) as Record<string, unknown>,
    prevHash: r.prev_hash,
    hash: r.hash,
  }));
}
