import { chainHash, GENESIS_HASH, hashBodyOf, sealedDigest, sealedHashBody } from '../audit/receipts';
import type { TeamReceiptView } from './teamStore';

export interface ServedChainCheck {
  /** Receipts, from seq 1, whose hashes and links were recomputed from what this reader holds. */
  verified: number;
  /** Of those, how many the reader could not read and verified through their seal digest. */
  throughSeal: number;
  firstBroken: { seq: number; reason: string } | null;
}

/**
 * Recomputes a case's chain from what the team server showed one reader, in seq order: each
 * receipt's link to the one before, and its hash from its chain fields and the salted digest of
 * what it says. A receipt the reader may read is held to its digest too (the digest is
 * recomputed from the salt and the content); one they may not read is verified through the
 * digest alone, which reveals nothing of it. A receipt written before sealing (no digest) that the
 * reader may not read cannot be recomputed: the check stops there and says so.
 *
 * Signatures and the case state are verify's (audit/verify.ts), on a replica that holds the rows;
 * this is what a reader with only the server's log, and a partial view of it, can prove.
 */
export function checkServedChain(receipts: readonly TeamReceiptView[]): ServedChainCheck {
  let prevHash = GENESIS_HASH;
  let prevSignature: string | null = null;
  let throughSeal = 0;
  const broken = (seq: number, reason: string, verified: number): ServedChainCheck => ({ verified, throughSeal, firstBroken: { seq, reason } });
  for (const [i, r] of receipts.entries()) {
    if (r.seq !== i + 1) return broken(Math.min(r.seq, i + 1), `expected seq ${i + 1} but found ${r.seq}`, i);
    if (r.prev_hash !== prevHash) return broken(r.seq, `prev_hash does not match the hash of seq ${r.seq - 1}`, i);
    let body: string;
    if (r.readable) {
      if (r.salt !== null && sealedDigest(r.salt, r) !== r.content_digest) {
        return broken(r.seq, 'what the receipt says does not match its seal digest', i);
      }
      body = hashBodyOf(r, prevSignature);
    } else if (r.content_digest !== null) {
      body = sealedHashBody(r, r.content_digest, prevSignature);
      throughSeal += 1;
    } else {
      return broken(r.seq, 'the receipt predates sealed receipts and is outside your clearance, so its hash cannot be recomputed by you', i);
    }
    if (chainHash(r.prev_hash, body) !== r.hash) return broken(r.seq, 'hash does not cover the receipt as served', i);
    prevHash = r.hash;
    prevSignature = r.signature;
  }
  return { verified: receipts.length, throughSeal, firstBroken: null };
}
