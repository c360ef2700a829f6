import Database from 'better-sqlite3';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../shared/domain/canonical';
import { tableDigest } from '../store/digest';
import { keyIdOf, publicKeyObject, verifySignature } from './keys';
import { appendReceipt, GENESIS_HASH, receiptHashBody, sealedDigest, signedMessage, stateFingerprint, type ReceiptRow } from './receipts';
import { openAsAttacker } from '../../testing/tamper';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

const rows = () => rc.session.db().prepare('SELECT * FROM audit_receipt ORDER BY seq').all() as ReceiptRow[];

describe('receipt hashing', () => {
  it('hashes exactly canonicalJson of the parsed receipt, spliced from stored canonical text, sealed by a salted digest', async () => {
    await rc.evidence('ev-1');
    const all = rows();
    let prevSignature: string | null = null;
    const salts = new Set<string>();
    for (const r of all) {
      // What the receipt says, hashed with its own salt under the seal's domain tag.
      const sealed = {
        targets: JSON.parse(r.targets) as unknown,
        body: JSON.parse(r.body) as unknown,
        pre_state_fp: r.pre_state_fp,
        post_state_fp: r.post_state_fp,
        artifact_digests: JSON.parse(r.artifact_digests) as unknown,
      };
      expect(r.salt).toMatch(/^[0-9a-f]{32}$/);
      salts.add(r.salt!);
      const digest = createHash('sha256').update(`erwb-seal:v1:${r.salt}:${canonicalJson(sealed)}`).digest('hex');
      expect(sealedDigest(r.salt!, r)).toBe(digest);
      const parsed = { seq: r.seq, at: r.at, actor: r.actor, action: r.action, content_digest: digest, signer: r.signer, prev_signature: prevSignature };
      expect(receiptHashBody({ ...r, prev_signature: prevSignature })).toBe(canonicalJson(parsed));
      prevSignature = r.signature;
    }
    // A salt per receipt: two receipts saying the same thing still get unrelated digests.
    expect(salts.size).toBe(all.length);
  });

  it('hashes a receipt written before sealing (no salt) over its fields in clear, as format 1 did', async () => {
    await rc.evidence('ev-1');
    const r = { ...rows()[1]!, salt: null };
    const parsed = {
      seq: r.seq, at: r.at, actor: r.actor, action: r.action,
      targets: JSON.parse(r.targets) as unknown, body: JSON.parse(r.body) as unknown,
      pre_state_fp: r.pre_state_fp, post_state_fp: r.post_state_fp, artifact_digests: JSON.parse(r.artifact_digests) as unknown,
      signer: r.signer, prev_signature: 'sig',
    };
    expect(receiptHashBody({ ...r, prev_signature: 'sig' })).toBe(canonicalJson(parsed));
  });

  it('signs every receipt with the acting reviewer\'s registered key', async () => {
    await rc.evidence('ev-1');
    rc.as('bob');
    await rc.call('claim:create', { statement: 'bob claims', tenant: 'acme', classification: 'internal' });
    const keys = new Map((await rc.call('audit:keys', {})).items.map((k) => [k.keyId, k]));
    for (const r of rows()) {
      const key = keys.get(r.signer!);
      expect(key?.actorId).toBe(r.actor);
      expect(keyIdOf(key!.publicKey)).toBe(r.signer);
      expect(verifySignature(publicKeyObject(key!.publicKey), signedMessage(r.hash), r.signature!)).toBe(true);
    }
    expect(new Set(rows().map((r) => r.actor))).toEqual(new Set(['admin', 'bob']));
  });

  it('refuses to append outside a transaction', () => {
    const ctx = rc.session.context();
    expect(() => appendReceipt(ctx, { action: 'test:x', targets: [], body: {} })).toThrow(/inside the change's transaction/);
  });
});

describe('reviewer keys on this machine', () => {
  const keyDir = () => join(rc.session.keysDir, rc.session.db().prepare("SELECT value FROM case_meta WHERE key = 'case_id'").pluck().get() as string);

  it('keeps private keys sealed in the session\'s user data dir, 0600 in a 0700 folder, one file per key', () => {
    expect(rc.session.keysDir.startsWith(rc.dir)).toBe(true);
    const files = readdirSync(keyDir());
    expect(files.map((f) => f.split('.')[0]).sort()).toEqual(['admin', 'alice', 'bob', 'carol', 'dave', 'erin', 'faye']);
    expect(statSync(keyDir()).mode & 0o777).toBe(0o700);
    for (const f of files) {
      expect(f).toMatch(/^[a-z]+\.ed25519_[0-9a-f]{32}\.key$/);
      expect(statSync(join(keyDir(), f)).mode & 0o777).toBe(0o600);
      // Sealed with the passphrase: no plain PKCS#8 on disk.
      expect(readFileSync(join(keyDir(), f), 'utf8')).not.toContain('PRIVATE KEY');
    }
    // The case file holds public keys only.
    const db = rc.session.db();
    expect(JSON.stringify(db.prepare('SELECT * FROM actor_key').all())).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(db.prepare('SELECT body FROM audit_receipt').all())).not.toContain('PRIVATE KEY');
  });

  it('refuses changes by a reviewer whose key is not on this machine, but still reads and verifies', async () => {
    await rc.evidence('ev-1');
    const bobsKey = readdirSync(keyDir()).find((f) => f.startsWith('bob.'))!;
    renameSync(join(keyDir(), bobsKey), join(rc.dir, bobsKey));
    rc.session.close();
    rc.session.open(rc.casePath); // a fresh session: nothing unlocked
    const before = tableDigest(rc.casePath);
    // Without the key bob cannot prove who he is here: no unlock, so nothing in his name.
    const env = await rc.raw('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    expect(env.ok).toBe(false);
    if (!env.ok) {
      expect(env.error.code).toBe('FORBIDDEN');
      expect(env.error.message).toMatch(/^actor:unlock refused: no signing key for reviewer bob on this machine .*actor:rekey.*Reading and verifying the case still work\.$/);
    }
    expect(tableDigest(rc.casePath)).toBe(before);
    // Another reviewer here reads and verifies as before.
    rc.as('admin');
    expect((await rc.call('evidence:list', {})).items).toHaveLength(1);
    expect((await rc.call('audit:verify', {})).ok).toBe(true);

    // An admin here issues bob a new key, sealed with the passphrase bob types; bob works again.
    const key = await rc.call('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'bob', reason: 'case carried to the IR laptop without bob\'s key' });
    expect(readdirSync(keyDir()).filter((f) => f.startsWith('bob.'))).toHaveLength(1);
    rc.as('bob');
    await rc.call('claim:create', { statement: 'after rekey', tenant: 'acme', classification: 'internal' });
    const last = rows().at(-1)!;
    expect(last.signer).toBe(key.keyId);
    const keys = (await rc.call('audit:keys', {})).items.filter((k) => k.actorId === 'bob');
    expect(keys.map((k) => k.retiredAt === null)).toEqual([false, true]);
    expect(await rc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
  });

  it('lets an admin replace their own key, signing the change with the old one', async () => {
    const old = (await rc.call('audit:keys', {})).items.find((k) => k.actorId === 'admin')!;
    const fresh = await rc.call('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'admin', reason: 'rotation' });
    const rekey = rows().at(-1)!;
    expect(rekey.signer).toBe(old.keyId);
    await rc.evidence('ev-after');
    expect(rows().at(-1)!.signer).toBe(fresh.keyId);
    expect((await rc.call('audit:verify', {})).ok).toBe(true);
  });

  it('refuses rekeying by a non-admin', async () => {
    rc.as('bob');
    expect(await rc.raw('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'carol', reason: 'x' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});

/** base64 SPKI of a key no receipt registers. */
const OTHER_PUBLIC_KEY = (generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');

describe('signing on top of a tampered chain', () => {
  it('refuses to append after a last receipt whose signature does not verify, writing nothing', async () => {
    await rc.evidence('ev-1');
    // Another connection changes the tip while this session keeps the file open.
    const raw = new Database(rc.casePath);
    raw.exec('DROP TRIGGER audit_receipt_no_update');
    const last = raw.prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number;
    raw.prepare("UPDATE audit_receipt SET signature = 'AAAA' WHERE seq = ?").run(last);
    raw.close();
    const before = tableDigest(rc.casePath);
    const env = await rc.raw('claim:create', { statement: 'on top of a forgery', tenant: 'acme', classification: 'internal' });
    expect(env).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    if (!env.ok) expect(env.error.message).toContain(`the last receipt (seq ${last}) carries a signature that does not verify`);
    expect(tableDigest(rc.casePath)).toBe(before);
  });

  it.each([
    ['unsigned', `UPDATE audit_receipt SET signer = NULL, signature = NULL WHERE seq = :last`, 'is unsigned'],
    ['signed by an unregistered key', `UPDATE audit_receipt SET signer = 'ed25519:${'0'.repeat(32)}' WHERE seq = :last`, `is signed by ed25519:${'0'.repeat(32)}, which no receipt registered for`],
    [
      // The key id is the one signing, but the key it registers is another: the registration was edited.
      'signed by a key whose registration now carries another public key',
      `UPDATE audit_receipt SET body = json_set(body, '$.registersKey.publicKey', '${OTHER_PUBLIC_KEY}')
       WHERE json_extract(body, '$.registersKey.keyId') = (SELECT signer FROM audit_receipt WHERE seq = :last)`,
      // An edited registration registers nothing: refused as an unregistered key, before any signature is checked.
      'is signed by ed25519:',
    ],
    [
      'after a registration receipt that is not JSON',
      `UPDATE audit_receipt SET body = 'not json' WHERE seq = (SELECT MIN(seq) FROM audit_receipt WHERE action = 'actor:create')`,
      'cannot be checked: a key registration receipt is not valid JSON',
    ],
  ])('refuses to append on a tip %s, writing nothing', async (_what, sql, why) => {
    await rc.evidence('ev-1');
    const raw = openAsAttacker(rc.casePath);
    const last = raw.prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number;
    raw.prepare(sql.replace(':last', String(last))).run();
    raw.close();
    const before = tableDigest(rc.casePath);
    // Opened again: nothing verified about the tip is remembered.
    rc.session.session.close();
    await rc.call('case:open', { path: rc.casePath });
    rc.as('alice');
    const env = await rc.raw('claim:create', { statement: 'on top of a forgery', tenant: 'acme', classification: 'internal' });
    expect(env).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining(`claim:create refused: the last receipt (seq ${last}) ${why}`) as unknown } });
    expect(tableDigest(rc.casePath)).toBe(before);
  });
});

describe('the chain', () => {
  it('signs each receipt hash under its domain tag (what an outside verifier recomputes)', () => {
    expect(signedMessage('ab'.repeat(32)).toString('utf8')).toBe(`erwb-receipt:v1:${'ab'.repeat(32)}`);
  });

  it('starts from 64 zeros', () => {
    expect(GENESIS_HASH).toBe('0'.repeat(64));
    expect(rows()[0]!.prev_hash).toBe('0'.repeat(64));
  });

  it('fingerprints no state as null, and any state (false and 0 included) by its canonical JSON', () => {
    expect(stateFingerprint(undefined)).toBeNull();
    expect(stateFingerprint(null)).toBeNull();
    expect(stateFingerprint(false)).toMatch(/^[0-9a-f]{64}$/);
    expect(stateFingerprint(0)).not.toBe(stateFingerprint(false));
  });
});
