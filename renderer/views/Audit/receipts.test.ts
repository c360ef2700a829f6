import { describe, expect, it } from 'vitest';
import type { ActorKeyView, ChainVerification, ReceiptView } from '../../../shared/ipc/channels/audit';
import { headCheckSummary, isWithheld, parseHead, signedCounts, signerOf } from './receipts';

const H = 'a'.repeat(64);
const receipt = (over: Partial<ReceiptView> = {}): ReceiptView => ({
  seq: 3,
  at: '2026-11-20T10:00:00.000Z',
  actor: 'priya.s',
  action: 'decision:approve',
  targets: ['decision:dec-1', 'claim:cl-1'],
  body: { decisionId: 'dec-1' },
  preStateFp: null,
  postStateFp: 'b'.repeat(64),
  artifacts: {},
  prevHash: H,
  hash: 'c'.repeat(64),
  signer: 'ed25519:priya',
  signature: 'sig',
  ...over,
});
const key = (keyId: string, actorId: string): ActorKeyView => ({ keyId, actorId, algorithm: 'ed25519', publicKey: 'pk', registeredAt: '2026-11-20T09:00:00Z', retiredAt: null });
const verification = (over: Partial<ChainVerification> = {}): ChainVerification => ({
  ok: true,
  routine: null,
  length: 10,
  head: `erwb-head:10:${H}`,
  firstBroken: null,
  signatures: { mode: 'every', verified: 10 },
  fingerprints: { checked: 4, unchecked: 0 },
  rootKey: 'ed25519:lena',
  expectedHead: null,
  ...over,
});

describe('audit receipts', () => {
  it('recognises a receipt withheld from the actor by its redacted targets or body', () => {
    expect(isWithheld(receipt())).toBe(false);
    expect(isWithheld(receipt({ targets: ['hidden'], body: { withheld: 'outside your clearance' } }))).toBe(true);
    expect(isWithheld(receipt({ body: { withheld: 'x' } }))).toBe(true);
  });

  it('parses only well-formed heads', () => {
    expect(parseHead(` erwb-head:12:${H} `)).toEqual({ seq: 12, hash: H });
    for (const bad of ['', `erwb-head:012:${H}`, `erwb-head:12:${H.slice(1)}`, `head:12:${H}`]) expect(parseHead(bad)).toBeNull();
  });

  it('names the signer’s actor and flags a key registered to someone else', () => {
    const keys = [key('ed25519:priya', 'priya.s'), key('ed25519:jonas', 'jonas.w')];
    expect(signerOf(receipt(), keys)).toEqual({ keyId: 'ed25519:priya', actorId: 'priya.s', mismatch: false });
    expect(signerOf(receipt({ signer: 'ed25519:jonas' }), keys)?.mismatch).toBe(true);
    expect(signerOf(receipt({ signer: 'ed25519:gone' }), keys)).toEqual({ keyId: 'ed25519:gone', actorId: null, mismatch: false });
    expect(signerOf(receipt({ signer: null, signature: null }), keys)).toBeNull();
  });

  it('says how many receipts followed a head that still verifies, and why one does not', () => {
    const earlier = `erwb-head:7:${H}`;
    expect(headCheckSummary(earlier, verification())).toContain('3 receipts were appended since');
    expect(headCheckSummary(`erwb-head:10:${H}`, verification())).toContain('Nothing was appended since');
    const broken = verification({ ok: false, length: 7, firstBroken: { seq: 8, kind: 'head', reason: 'the chain ends at seq 7' } });
    expect(headCheckSummary(`erwb-head:8:${H}`, broken)).toBe(`Does not verify against erwb-head:8:${H}: head at seq 8: the chain ends at seq 7`);
  });

  it('counts receipts per signing key', () => {
    const counts = signedCounts([receipt(), receipt({ seq: 4 }), receipt({ seq: 5, signer: 'ed25519:jonas' }), receipt({ seq: 6, signer: null })]);
    expect(Object.fromEntries(counts)).toEqual({ 'ed25519:priya': 2, 'ed25519:jonas': 1 });
  });
});
