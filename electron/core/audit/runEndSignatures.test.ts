import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeGeneratedBundle } from '../../testing/generatedBundle';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { allReceipts, openAsAttacker, rehashFrom } from '../../testing/tamper';
import { testKeyOf } from '../../testing/testCase';
import { channelRequest } from '../interchange/channelRequest';
import { createClaim } from '../services/claims';
import { writeTransaction } from '../store/caseFile';
import { appendReceipt, chainHash, receiptHashBody, signedAtRunEnd, signedMessage, type ReceiptRow } from './receipts';
import { verifyChain, verifyChainAsync } from './verify';

/**
 * Imports sign once (receipts.ts, signedAtRunEnd): their receipts are written with their signer
 * and no signature, and one signed `audit:sign` receipt closes the run. Verify holds every
 * unsigned receipt to the next signature of its own signer, and a chain may not end unsigned.
 */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

/** A seeded bundle of one claim, n evidence and their n bindings: 1 + 2n records, each a receipt. */
const bundle = (n: number): string => writeGeneratedBundle(rc.dir, 1, 20261207, n);

const since = (seq: number): ReceiptRow[] => allReceipts(rc.session.db()).filter((r) => r.seq > seq);

/** The import's receipts, after the case's own: all unsigned but the last, which signs for them. */
function expectSignedOnce(rows: ReceiptRow[], records: number): void {
  expect(rows).toHaveLength(records + 1);
  const close = rows.at(-1)!;
  expect(close).toMatchObject({ action: 'audit:sign', actor: 'admin', targets: '[]' });
  expect(close.signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
  expect(JSON.parse(close.body)).toEqual({ signs: { fromSeq: rows[0]!.seq, toSeq: close.seq - 1 } });
  for (const r of rows.slice(0, -1)) expect({ seq: r.seq, signer: r.signer, signature: r.signature }).toEqual({ seq: r.seq, signer: close.signer, signature: null });
}

async function verifiesEveryWay(): Promise<void> {
  for (const signatures of ['every', 'run-ends'] as const) {
    expect(verifyChain(rc.session.db(), { signatures }).firstBroken).toBeNull();
    expect((await verifyChainAsync(rc.session.db(), { signatures })).firstBroken).toBeNull();
  }
}

async function breaksEveryWay(expected: { seq: number; kind: string; reason: string | RegExp }): Promise<void> {
  const match = { seq: expected.seq, kind: expected.kind, reason: expect.stringMatching(expected.reason) };
  for (const signatures of ['every', 'run-ends'] as const) {
    expect(verifyChain(rc.session.db(), { signatures }).firstBroken, `verifyChain ${signatures}`).toEqual(match);
    expect((await verifyChainAsync(rc.session.db(), { signatures })).firstBroken, `verifyChainAsync ${signatures}`).toEqual(match);
  }
}

describe('an import signs its run once', () => {
  it('bundle:import writes its receipts unsigned and closes them with one signed audit:sign; the chain verifies every way', async () => {
    const before = rc.receiptCount();
    await rc.call('bundle:import', { path: bundle(4) });
    expectSignedOnce(since(before), 1 + 4 + 4);
    await verifiesEveryWay();
    // 'every' checks each signature there is: the run's one, not nine.
    expect(verifyChain(rc.session.db(), { signatures: 'every' }).signatures.verified).toBe(before + 1);
  });

  it('an import job (the window and the CLI) does the same, and a re-import that writes nothing signs nothing', async () => {
    const before = rc.receiptCount();
    const path = bundle(3);
    let p = await rc.call('import:start', { source: { path } });
    while (p.phase === 'reading' || p.phase === 'applying') {
      await new Promise((r) => setTimeout(r, 20));
      p = await rc.call('import:progress', { jobId: p.jobId });
    }
    expect(p.phase).toBe('done');
    expectSignedOnce(since(before), 1 + 3 + 3);
    const after = rc.receiptCount();
    await rc.call('bundle:import', { path });
    expect(rc.receiptCount()).toBe(after);
    await verifiesEveryWay();
  });

  it('the next change after an import is signed as usual, by whoever makes it', async () => {
    await rc.call('bundle:import', { path: bundle(2) });
    await rc.claim('cl-after');
    const last = since(0).at(-1)!;
    expect(last).toMatchObject({ action: 'claim:create', actor: 'alice' });
    expect(last.signature).not.toBeNull();
    await verifiesEveryWay();
  });
});

describe('what verify refuses', () => {
  it('a run whose closing receipt was cut off: nothing signs for it', async () => {
    const before = rc.receiptCount();
    await rc.call('bundle:import', { path: bundle(2) });
    const attacker = openAsAttacker(rc.casePath);
    attacker.prepare('DELETE FROM audit_receipt WHERE seq = (SELECT MAX(seq) FROM audit_receipt)').run();
    attacker.close();
    await breaksEveryWay({ seq: before + 1, kind: 'signature', reason: /^the receipt is unsigned and no signature of its signer ed25519:\w+ follows it/ });
  });

  it.each([
    ['after a receipt of the same signer', false],
    ["after another reviewer's receipt (the run starts at the import)", true],
  ])('an unsigned receipt edited and the chain re-hashed, %s: the closing signature fails, and the break names the first receipt it signed for', async (_, otherFirst) => {
    if (otherFirst) await rc.claim('cl-alice');
    const before = rc.receiptCount();
    await rc.call('bundle:import', { path: bundle(2) });
    const close = since(before).at(-1)!.seq;
    const attacker = openAsAttacker(rc.casePath);
    attacker.prepare('UPDATE audit_receipt SET at = ? WHERE seq = ?').run('2026-01-01T00:00:00.000Z', before + 2);
    rehashFrom(attacker, before + 2);
    attacker.close();
    await breaksEveryWay({ seq: before + 1, kind: 'signature', reason: `seq ${close} signs for seq ${before + 1}–${close}, and its signature does not verify` });
  });

  it("another reviewer's signature does not sign for someone else's unsigned receipts", async () => {
    const before = rc.receiptCount();
    await rc.call('bundle:import', { path: bundle(2) });
    // An insider with alice's key rewrites the closing receipt as hers, re-hashed and re-signed.
    const alice = testKeyOf(rc.session, 'alice');
    const attacker = openAsAttacker(rc.casePath);
    const close = allReceipts(attacker).at(-1)!;
    const forged = { ...close, actor: 'alice', signer: alice.keyId };
    const hash = chainHash(close.prev_hash, receiptHashBody({ ...forged, prev_signature: null }));
    attacker.prepare('UPDATE audit_receipt SET actor = ?, signer = ?, hash = ?, signature = ? WHERE seq = ?').run('alice', alice.keyId, hash, alice.sign(signedMessage(hash)), close.seq);
    attacker.close();
    await breaksEveryWay({ seq: before + 1, kind: 'signature', reason: `the receipt is unsigned and the next signer is not its own: seq ${close.seq} is signed by ${alice.keyId}` });
  });

  it('a key registration without its signature, even followed by its signer', async () => {
    const attacker = openAsAttacker(rc.casePath);
    const registration = allReceipts(attacker).find((r) => r.action === 'actor:create')!;
    attacker.prepare('UPDATE audit_receipt SET signature = NULL WHERE seq = ?').run(registration.seq);
    rehashFrom(attacker, registration.seq + 1);
    attacker.close();
    await breaksEveryWay({ seq: registration.seq, kind: 'signature', reason: /^the receipt is unsigned \(written before reviewer signatures/ });
  });
});

describe('what appendReceipt refuses', () => {
  it('another reviewer writing on top of an unsigned run: refused, and the case is as it was', async () => {
    const before = rc.receiptCount();
    const admin = signedAtRunEnd(rc.session.context());
    expect(() =>
      writeTransaction(admin.db, () => {
        createClaim(admin, channelRequest('claim:create', { claimId: 'cl-a', statement: 'by admin, signed at the run end', tenant: 'acme', classification: 'internal' }));
        rc.as('alice');
        createClaim(rc.session.context(), channelRequest('claim:create', { claimId: 'cl-b', statement: 'by alice, on top of it', tenant: 'acme', classification: 'internal' }));
      }),
    ).toThrow(/^claim:create refused: the last receipt \(seq \d+\) waits for its signer ed25519:\w+'s signature/);
    expect(rc.receiptCount()).toBe(before);
    await verifiesEveryWay();
  });

  it('a receipt that registers a key is signed even inside a run signed at its end', () => {
    const admin = signedAtRunEnd(rc.session.context());
    const alice = testKeyOf(rc.session, 'alice');
    let signature: string | null = 'unset';
    expect(() =>
      writeTransaction(admin.db, () => {
        const { seq } = appendReceipt(admin, { action: 'actor:rekey', targets: ['actor:alice'], body: { registersKey: { actorId: 'alice', keyId: alice.keyId } } });
        signature = admin.db.prepare('SELECT signature FROM audit_receipt WHERE seq = ?').pluck().get(seq) as string | null;
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
  });
});
