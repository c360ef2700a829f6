import type { ActorKeyView, ChainVerification, ReceiptView } from '../../../shared/ipc/channels/audit';

/** A receipt about something outside the actor's clearance: its place in the chain shows, its content not. */
export const isWithheld = (r: ReceiptView): boolean => (r.targets.length === 1 && r.targets[0] === 'hidden') || 'withheld' in r.body;

export function parseHead(head: string): { seq: number; hash: string } | null {
  const m = /^erwb-head:(0|[1-9][0-9]*):([0-9a-f]{64})$/.exec(head.trim());
  return m ? { seq: Number(m[1]), hash: m[2]! } : null;
}

export interface SignerInfo {
  keyId: string;
  /** The actor the key is registered to, or null when no listed key has that id. */
  actorId: string | null;
  /** The key belongs to someone else than the receipt's actor (verification also checks this). */
  mismatch: boolean;
}

export function signerOf(r: ReceiptView, keys: readonly ActorKeyView[]): SignerInfo | null {
  if (!r.signer) return null;
  const key = keys.find((k) => k.keyId === r.signer);
  return { keyId: r.signer, actorId: key?.actorId ?? null, mismatch: key !== undefined && key.actorId !== r.actor };
}

export const BROKEN_KIND_EXPLAINED: Record<NonNullable<ChainVerification['firstBroken']>['kind'], string> = {
  chain: 'the hash chain: a sequence number, previous hash or hash does not recompute (inserted, removed or edited receipt)',
  signature: 'a signature: the receipt is not signed by the key registered to its actor, or the signature does not verify',
  state: 'a state fingerprint or artifact digest: what the case holds now differs from what the receipt recorded',
  head: 'the expected head: the chain ends before it or differs at it (truncated or rewritten)',
};

/** What a verification against an earlier head says, in one sentence. */
export function headCheckSummary(expectedHead: string, result: ChainVerification): string {
  if (!result.ok) {
    const b = result.firstBroken!;
    return `Does not verify against ${expectedHead}: ${b.kind} at seq ${b.seq}: ${b.reason}`;
  }
  const expected = parseHead(expectedHead);
  // A chain that verifies is verified to its end: its length is the current head's seq.
  const since = expected ? result.length - expected.seq : 0;
  const appended = since > 0 ? ` ${since} receipt${since === 1 ? ' was' : 's were'} appended since.` : ' Nothing was appended since.';
  return `The chain reaches ${expectedHead} unchanged: nothing up to it was truncated or rewritten.${appended}`;
}

/** Receipts signed by each key among those listed (a quick cross-check of the keys table). */
export function signedCounts(receipts: readonly ReceiptView[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of receipts) if (r.signer) counts.set(r.signer, (counts.get(r.signer) ?? 0) + 1);
  return counts;
}
