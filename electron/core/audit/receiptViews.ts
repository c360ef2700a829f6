import type { ReceiptView } from '../../../shared/ipc/channels/audit';
import type { CaseDb } from '../store/caseFile';
import { GENESIS_HASH, type ReceiptRow } from './receipts';

/** `erwb-head:<seq>:<hash>`: the short chain head a reviewer pastes into a ticket or report. */
export const formatHead = (seq: number, hash: string): string => `erwb-head:${seq}:${hash}`;

export function parseHead(head: string): { seq: number; hash: string } | null {
  const m = /^erwb-head:(0|[1-9][0-9]*):([0-9a-f]{64})$/.exec(head);
  return m ? { seq: Number(m[1]), hash: m[2]! } : null;
}

export function chainHead(db: CaseDb): { seq: number; hash: string; head: string } {
  const last = db.prepare('SELECT seq, hash FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as
    | { seq: number; hash: string }
    | undefined;
  const seq = last?.seq ?? 0;
  const hash = last?.hash ?? GENESIS_HASH;
  return { seq, hash, head: formatHead(seq, hash) };
}

/** JSON.parse, or `fallback` for text that is not JSON (a tampered file may hold anything). */
export function parseOr<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
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
    // A tampered file may hold anything here; show it rather than fail the whole list.
    targets: parseOr<string[]>(r.targets, [`(not JSON) ${r.targets.slice(0, 200)}`]),
    body: parseOr<Record<string, unknown>>(r.body, { notJson: r.body.slice(0, 2000) }),
    preStateFp: r.pre_state_fp,
    postStateFp: r.post_state_fp,
    artifacts: parseOr<Record<string, string>>(r.artifact_digests, {}),
    prevHash: r.prev_hash,
    hash: r.hash,
    signer: r.signer,
    signature: r.signature,
  }));
}
