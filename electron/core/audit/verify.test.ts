import Database from 'better-sqlite3';
import { generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../context';
import { getActor } from '../store/actorRows';
import { keyIdOf, pinnedKeySource, type KeyRegistration, type SigningKey } from './keys';
import { appendReceipt, chainHash, receiptHashBody, signedMessage, type ReceiptRow } from './receipts';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { verifyChain, type ResumePoint } from './verify';
import { TEST_PASSPHRASE, testKeyOf } from '../../testing/testCase';
import { allReceipts, openAsAttacker, resignAll } from '../../testing/tamper';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-1@1');
});
afterEach(() => rc.cleanup());

/** Appends a receipt in `actorId`'s name signed with `key`: what someone holding that key could do. */
function appendWith(actorId: string, key: SigningKey, input: Parameters<typeof appendReceipt>[1]): number {
  const ctx = rc.session.context();
  const forged: ServiceContext = { ...ctx, actor: getActor(ctx.db, actorId)!, keyring: pinnedKeySource(ctx.keyring!, key) };
  return ctx.db.transaction(() => appendReceipt(forged, input))().seq;
}

/** Appends a receipt with `signerOf`'s real key, the way a colluding reviewer could. */
function appendAs(actorId: string, signerOf: string, input: Parameters<typeof appendReceipt>[1]): number {
  return appendWith(actorId, testKeyOf(rc.session, signerOf), input);
}

describe('verifyChain', () => {
  it('checks fewer signatures in run-ends mode and reaches the same verdict', () => {
    const every = verifyChain(rc.session.db(), { signatures: 'every' });
    const runEnds = verifyChain(rc.session.db(), { signatures: 'run-ends' });
    expect(every).toMatchObject({ ok: true, firstBroken: null, signatures: { verified: every.length } });
    expect(runEnds).toMatchObject({ ok: true, length: every.length, head: every.head, rootKey: every.rootKey });
    expect(runEnds.signatures.verified).toBeLessThan(every.signatures.verified);
    expect(every.fingerprints.checked).toBeGreaterThan(0);
  });

  it('refuses a receipt signed with another reviewer\'s key', () => {
    const seq = appendAs('carol', 'bob', { action: 'claim:note', targets: ['claim:cl-1'], body: { note: 'in carol\'s name' } });
    const v = verifyChain(rc.session.db());
    expect(v.firstBroken).toMatchObject({ seq, kind: 'signature' });
    expect(v.firstBroken!.reason).toContain('a key of bob, not of the receipt\'s actor carol');
  });

  it('refuses a key registered by a non-admin, even with a valid signature', () => {
    const publicKey = (generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');
    const carolsKey = rc.session.db().prepare("SELECT key_id FROM actor_key WHERE actor_id = 'carol'").pluck().get() as string;
    const reg: KeyRegistration = { actorId: 'carol', keyId: keyIdOf(publicKey), publicKey, retires: [carolsKey] };
    const seq = appendAs('bob', 'bob', { action: 'actor:rekey', targets: [`key:${reg.keyId}`, 'actor:carol'], body: { actorId: 'carol', registersKey: reg } });
    const v = verifyChain(rc.session.db());
    expect(v.firstBroken).toMatchObject({ seq, kind: 'signature', reason: 'bob registered a key but is not an admin of this case' });
  });

  it('refuses a key registration that registers nothing, or names a key id its public key does not have, even signed by an admin', () => {
    const db = rc.session.db();
    const before = db.prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number;
    const empty = appendAs('admin', 'admin', { action: 'actor:create', targets: ['actor:erin'], body: { actorId: 'erin', role: 'analyst' } });
    expect(verifyChain(db).firstBroken).toEqual({ seq: empty, kind: 'signature', reason: 'actor:create registers no reviewer key (or its body is not JSON)' });

    const attacker = openAsAttacker(rc.casePath);
    attacker.prepare('DELETE FROM audit_receipt WHERE seq > ?').run(before);
    attacker.close();
    const publicKey = (generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');
    const otherKeyId = keyIdOf((generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64'));
    const reg: KeyRegistration = { actorId: 'erin', keyId: otherKeyId, publicKey, retires: [] };
    const mismatched = appendAs('admin', 'admin', { action: 'actor:create', targets: ['actor:erin'], body: { actorId: 'erin', role: 'analyst', registersKey: reg } });
    expect(verifyChain(db).firstBroken).toEqual({ seq: mismatched, kind: 'signature', reason: `registered key ${otherKeyId} does not match its public key` });
  });

  it('refuses a rekey, even by an admin, that reuses a registered key, retires a key not the reviewer\'s, or leaves two keys active', () => {
    const db = rc.session.db();
    const before = db.prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number;
    const keyOf = (actorId: string) => db.prepare('SELECT key_id FROM actor_key WHERE actor_id = ? ORDER BY rowid DESC LIMIT 1').pluck().get(actorId) as string;
    const publicKeyOf = (keyId: string) => db.prepare('SELECT public_key FROM actor_key WHERE key_id = ?').pluck().get(keyId) as string;
    const fresh = () => {
      const publicKey = (generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');
      return { keyId: keyIdOf(publicKey), publicKey };
    };
    const rekeyCarol = (reg: KeyRegistration) =>
      appendAs('admin', 'admin', { action: 'actor:rekey', targets: [`key:${reg.keyId}`, 'actor:carol'], body: { actorId: 'carol', registersKey: reg } });
    const undo = () => {
      const attacker = openAsAttacker(rc.casePath);
      attacker.prepare('DELETE FROM audit_receipt WHERE seq > ?').run(before);
      attacker.close();
    };
    const carols = keyOf('carol');
    const bobs = keyOf('bob');

    const reused = rekeyCarol({ actorId: 'carol', keyId: bobs, publicKey: publicKeyOf(bobs), retires: [carols] });
    expect(verifyChain(db).firstBroken).toEqual({ seq: reused, kind: 'signature', reason: `key ${bobs} was already registered` });
    undo();
    const k1 = fresh();
    const foreign = rekeyCarol({ actorId: 'carol', ...k1, retires: [bobs] });
    expect(verifyChain(db).firstBroken).toEqual({ seq: foreign, kind: 'signature', reason: `retires ${bobs}, which is not a key of carol` });
    undo();
    const k2 = fresh();
    const second = rekeyCarol({ actorId: 'carol', ...k2, retires: [] });
    expect(verifyChain(db).firstBroken).toEqual({ seq: second, kind: 'signature', reason: `registers a second active key for carol without retiring ${carols}` });
  });

  it('refuses a receipt signed by a key no receipt registered', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyId = keyIdOf((publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64'));
    const stranger: SigningKey = { keyId, sign: (message) => cryptoSign(null, message, privateKey).toString('base64') };
    const seq = appendWith('bob', stranger, { action: 'claim:note', targets: ['claim:cl-1'], body: {} });
    expect(verifyChain(rc.session.db()).firstBroken).toEqual({ seq, kind: 'signature', reason: `signed by key ${keyId}, which no earlier receipt registered` });
  });

  it('refuses signatures by a retired key', async () => {
    const stolen = testKeyOf(rc.session, 'bob'); // what a lost laptop (and its passphrase) still holds
    await rc.call('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'bob', reason: 'laptop lost' });
    const seq = appendWith('bob', stolen, { action: 'claim:note', targets: ['claim:cl-1'], body: {} });
    const v = verifyChain(rc.session.db());
    expect(v.firstBroken).toMatchObject({ seq, kind: 'signature' });
    expect(v.firstBroken!.reason).toContain('after it was retired');
  });

  it('reports unsigned receipts (older than signatures, or stripped)', () => {
    const db = new Database(rc.casePath);
    db.exec('DROP TRIGGER audit_receipt_no_update');
    db.prepare('UPDATE audit_receipt SET signer = NULL, signature = NULL WHERE seq = 1').run();
    db.close();
    const v = verifyChain(rc.session.db());
    expect(v.firstBroken).toMatchObject({ seq: 1, kind: 'signature' });
    expect(v.firstBroken!.reason).toContain('unsigned');
  });

  it('detects a chain rewritten before an expected head', async () => {
    const head = await rc.call('audit:head', {});
    const other = `erwb-head:${head.seq}:${'0'.repeat(64)}`;
    expect((await rc.call('audit:verify', { expectedHead: head.head })).ok).toBe(true);
    const v = await rc.call('audit:verify', { expectedHead: other });
    expect(v.firstBroken).toMatchObject({ seq: head.seq, kind: 'head' });
    expect(v.firstBroken!.reason).toContain('rewritten at or before');
    expect((await rc.raw('audit:verify', { expectedHead: 'erwb-head:x' })).ok).toBe(false);
  });

  it('notices a row inserted behind the chain\'s back', async () => {
    await rc.evidence('ev-2');
    expect(verifyChain(rc.session.db()).ok).toBe(true);
    const db = new Database(rc.casePath);
    db.prepare(
      `INSERT INTO claim_binding (claim_id, generation, revision_id, relation, role, rationale, created_by, created_at)
       VALUES ('cl-1', 1, 'ev-2@1', 'FULL_SUPPORT', 'SUPPORTING', '', 'alice', '2026-11-20T09:00:00.000Z')`,
    ).run();
    db.close();
    const v = verifyChain(rc.session.db());
    expect(v.firstBroken).toMatchObject({ seq: v.length + 1, kind: 'state' });
    expect(v.firstBroken!.reason).toContain('binding of revision:ev-2@1 to claim:cl-1');
  });
});


describe('sealed receipts', () => {
  it('breaks at a receipt whose salt was changed, since its hash covers what it says only through the salted digest', () => {
    const db = openAsAttacker(rc.casePath);
    const seq = allReceipts(db)[2]!.seq;
    db.prepare("UPDATE audit_receipt SET salt = '00000000000000000000000000000000' WHERE seq = ?").run(seq);
    db.close();
    expect(verifyChain(rc.session.db()).firstBroken).toMatchObject({ seq, kind: 'chain', reason: expect.stringContaining('hash does not cover the stored receipt') as unknown });
  });

  it('refuses an unsealed receipt after sealed ones, even re-hashed and re-signed by its own reviewer', () => {
    const db = openAsAttacker(rc.casePath);
    const rows = allReceipts(db);
    const last = rows.at(-1)!;
    const prev = rows.at(-2)!;
    // The reviewer who wrote the last receipt rewrites it in the format before sealing: same
    // content, a valid hash and their own valid signature, but a receipt readers outside its
    // clearance could no longer verify the chain through.
    const unsealed: ReceiptRow = { ...last, salt: null };
    const hash = chainHash(prev.hash, receiptHashBody({ ...unsealed, prev_signature: prev.signature }));
    const signature = testKeyOf(rc.session, last.actor).sign(signedMessage(hash));
    db.prepare('UPDATE audit_receipt SET salt = NULL, hash = ?, signature = ? WHERE seq = ?').run(hash, signature, last.seq);
    db.close();
    expect(verifyChain(rc.session.db()).firstBroken).toMatchObject({ seq: last.seq, kind: 'chain', reason: expect.stringContaining('the receipt is unsealed') as unknown });
  });

  /**
   * What a case file written by an earlier build and then worked on by this one holds: its first
   * receipts (through `unsealedUpTo`) unsealed, hashed and signed as that build did.
   */
  function beganBeforeSealing(unsealedUpTo: number): ReceiptRow[] {
    const db = openAsAttacker(rc.casePath);
    resignAll(db, rc.session, (r) => ({ ...r, salt: r.seq <= unsealedUpTo ? null : r.salt }));
    const rewritten = allReceipts(db);
    db.close();
    return rewritten;
  }

  it('verifies a chain that began before sealing and continues sealed', () => {
    const rows = beganBeforeSealing(3);
    const v = verifyChain(rc.session.db());
    expect(v).toMatchObject({ ok: true, firstBroken: null, length: rows.length });
    const reader = new Database(rc.casePath, { readonly: true });
    expect(allReceipts(reader).filter((r) => r.salt === null).map((r) => r.seq)).toEqual([1, 2, 3]);
    reader.close();
  });

  it('resumes from a mark written before sealing (no `sealed` in it) as unsealed: the unsealed receipts after it verify', () => {
    const rows = beganBeforeSealing(Number.MAX_SAFE_INTEGER);
    let head: ResumePoint | null = null;
    expect(verifyChain(rc.session.db(), { reached: (p) => (head = p) }).ok).toBe(true);
    // The mark an earlier build recorded two receipts before the head: the same keys and admins
    // (every reviewer was registered by then), and no word of sealing.
    const at = rows.at(-3)!;
    const { sealed, ...older } = { ...head!, seq: at.seq, hash: at.hash, signature: at.signature };
    expect(sealed).toBe(false);
    const v = verifyChain(rc.session.db(), { resume: older });
    expect(v).toMatchObject({ ok: true, firstBroken: null, length: rows.length, routine: { since: at.seq } });
  });

  it('refuses, naming the option, a malformed expected head or one asked of a routine verification', () => {
    expect(() => verifyChain(rc.session.db(), { expectedHead: 'erwb-head:x' })).toThrow(/verifyChain: erwb-head:x is not a head of the form erwb-head:<seq>:<hash>/);
    let head: ResumePoint | null = null;
    const v = verifyChain(rc.session.db(), { reached: (p) => (head = p) });
    expect(() => verifyChain(rc.session.db(), { resume: head!, expectedHead: v.head! })).toThrow(/a routine verification cannot check an expected head; verify in full/);
  });
});

describe('what a reviewer outside the clearance sees', () => {
  it('withholds receipts about hidden evidence in audit:list and names nothing hidden in audit:verify', async () => {
    const secret = await rc.evidence('ev-secret', { classification: 'restricted' });
    rc.as('faye');
    const items = (await rc.call('audit:list', { limit: 500 })).items;
    const hidden = items.find((r) => r.targets[0] === 'hidden');
    // Its place in the chain stays visible; what it says is withheld.
    expect(hidden).toMatchObject({
      targets: ['hidden'],
      body: { withheld: 'this receipt concerns evidence or a claim outside your clearance' },
      artifacts: {},
      preStateFp: null,
      postStateFp: null,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    expect(JSON.stringify(items)).not.toContain(secret);
    const db = new Database(rc.casePath);
    db.exec('DROP TRIGGER evidence_revision_immutable');
    db.prepare("UPDATE evidence_revision SET content = 'edited' WHERE revision_id = ?").run(secret);
    db.close();
    const v = await rc.call('audit:verify', {});
    expect(v.ok).toBe(false);
    expect(JSON.stringify(v)).not.toContain(secret);
    expect(v.firstBroken!.reason).toBe(
      `the receipt at seq ${v.firstBroken!.seq} concerns an item outside your clearance and does not verify (${v.firstBroken!.kind}); an admin cleared for it, or cli verify, shows why`,
    );
    rc.as('admin');
    expect((await rc.call('audit:verify', {})).firstBroken!.reason).toContain(secret);
  });
});
