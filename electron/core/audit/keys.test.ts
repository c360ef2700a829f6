import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, TEST_KEY_COST, TEST_PASSPHRASE, type TestCase } from '../../testing/testCase';
import { Keyring, verifySignature } from './keys';
import { openSealedKey, WrongPassphrase } from './sealedKey';

/** Key files and signature checks, below the channels (keyCopies.test.ts covers them through a case). */

describe('verifySignature', () => {
  const message = Buffer.from('receipt 42');
  const ed = generateKeyPairSync('ed25519');
  const good = sign(null, message, ed.privateKey).toString('base64');

  it('accepts the signature of the key, and nothing else', () => {
    expect(verifySignature(ed.publicKey, message, good)).toBe(true);
    expect(verifySignature(ed.publicKey, Buffer.from('receipt 43'), good)).toBe(false);
  });

  it('answers false, not an exception, for a registered key that cannot verify at all (an X25519 key put in actor_key)', () => {
    const x = generateKeyPairSync('x25519');
    expect(verifySignature(x.publicKey, message, good)).toBe(false);
  });
});

describe('Keyring.keyPath', () => {
  it("escapes what a file name cannot hold on every system, so ids with ':' or '/' stay inside the case's folder", () => {
    const ring = new Keyring('/keys', 'case-1');
    expect(basename(ring.keyPath('ops:ana', 'ed25519:ab12'))).toBe('ops%3aana.ed25519_ab12.key');
    expect(basename(ring.keyPath('../x', 'k'))).toBe('..%2fx.k.key');
    expect(basename(ring.keyPath('ana@acme.example', 'k'))).toBe('ana@acme.example.k.key');
    // Two hex digits always, so every escape reads back one way.
    expect(basename(ring.keyPath('a\tb', 'k'))).toBe('a%09b.k.key');
  });
});

describe('Keyring on a case', () => {
  let tc: TestCase;
  beforeEach(async () => {
    tc = await createTestCase();
  });
  afterEach(() => tc.cleanup());
  const open = () => tc.session.session.openCase();
  const activeKeyId = () => open().db.prepare(`SELECT key_id FROM actor_key WHERE actor_id = 'admin' AND retired_at IS NULL`).pluck().get() as string;

  it('issues a key only inside the transaction that registers it', () => {
    const { db, keyring } = open();
    expect(() => keyring.issue(db, 'admin', '2026-12-01T00:00:00Z', TEST_PASSPHRASE)).toThrow('Keyring.issue(admin) must run inside the registering transaction');
  });

  it('says when the case registers no key for a reviewer', () => {
    const { db, keyring } = open();
    expect(() => keyring.unlock(db, 'nobody', TEST_PASSPHRASE, 'claim:create')).toThrow(
      'claim:create refused: reviewer nobody has no signing key registered in this case (the case file predates reviewer signatures or was altered); ask an admin to issue one with actor:rekey',
    );
  });

  it('tells an unreadable key file from a wrong passphrase', () => {
    const { db, keyring } = open();
    const path = keyring.keyPath('admin', activeKeyId());
    const file = JSON.parse(readFileSync(path, 'utf8')) as { kdf: { name: string } };
    writeFileSync(path, JSON.stringify({ ...file, kdf: { ...file.kdf, name: 'argon2id' } }));
    expect(() => keyring.unlock(db, 'admin', TEST_PASSPHRASE, 'claim:create')).toThrow(
      `claim:create refused: the key file ${path} is unreadable (not a erwb-sealed-key/1 file); restore it or ask an admin to issue a new key with actor:rekey`,
    );
  });

  /** Replaces admin's sealed key file with the plain PEM files of before passphrases; answers the sealed file's name. */
  function plainKeys(files: Record<string, 'the key' | 'another key' | 'not a key'>): string {
    const { keyring } = open();
    const sealed = keyring.keyPath('admin', activeKeyId());
    const key = openSealedKey(readFileSync(sealed, 'utf8'), TEST_PASSPHRASE);
    rmSync(sealed);
    const pem = (k: typeof key) => k.export({ type: 'pkcs8', format: 'pem' }) as string;
    for (const [name, what] of Object.entries(files)) {
      const text = what === 'the key' ? pem(key) : what === 'another key' ? pem(generateKeyPairSync('ed25519').privateKey) : 'not a PEM';
      writeFileSync(join(keyring.caseDir, name), text);
    }
    return basename(sealed);
  }

  it.each([['admin.pem'], ['admin.pem.next'], ['admin.<keyId>.pem']])(
    'seals a plain key left as %s with the passphrase of its first unlock, and removes the plain copy',
    (name) => {
      const { db, keyring } = open();
      const file = name.replace('<keyId>', activeKeyId().replace(/[^A-Za-z0-9]/g, '_'));
      const sealed = plainKeys({ [file]: 'the key' });
      expect(keyring.unlock(db, 'admin', 'a new passphrase for admin', 'actor:unlock').keyId).toBe(activeKeyId());
      expect(readdirSync(keyring.caseDir)).toEqual([sealed]);
      expect(() => keyring.unlock(db, 'admin', TEST_PASSPHRASE, 'actor:unlock')).toThrow('actor:unlock refused: wrong passphrase for reviewer admin');
    },
  );

  it('passes over plain files that hold another key or no key, and leaves them', () => {
    const { db, keyring } = open();
    plainKeys({ 'admin.pem': 'another key', 'admin.pem.next': 'not a key' });
    expect(() => keyring.unlock(db, 'admin', TEST_PASSPHRASE, 'actor:unlock')).toThrow(/^actor:unlock refused: no signing key for reviewer admin on this machine/);
    expect(readdirSync(keyring.caseDir).sort()).toEqual(['admin.pem', 'admin.pem.next']);
    expect(existsSync(keyring.keyPath('admin', activeKeyId()))).toBe(false);
  });

  it('says a wrong passphrase does not open a sealed key (and an unchanged file still opens with the right one)', () => {
    const { keyring } = open();
    const text = readFileSync(keyring.keyPath('admin', activeKeyId()), 'utf8');
    expect(() => openSealedKey(text, 'not the passphrase')).toThrow(new WrongPassphrase('the passphrase does not open this key'));
    expect(openSealedKey(text, TEST_PASSPHRASE).asymmetricKeyType).toBe('ed25519');
  });

  it('reseals under a new passphrase only with the current one', () => {
    const { db, keyring } = open();
    expect(() => keyring.reseal(db, 'admin', 'not the passphrase', 'next passphrase')).toThrow('actor:passphrase refused: wrong passphrase for reviewer admin');
    keyring.reseal(db, 'admin', TEST_PASSPHRASE, 'next passphrase');
    expect(keyring.unlock(db, 'admin', 'next passphrase', 'actor:unlock').keyId).toBe(activeKeyId());
  });

  it('refuses to register a key it cannot store, naming where and why, and the registration rolls back', () => {
    const { db } = open();
    const blocked = join(tc.dir, 'not-a-folder');
    writeFileSync(blocked, 'a file where the keys folder should be');
    const ring = new Keyring(blocked, 'case-1', TEST_KEY_COST);
    const before = activeKeyId();
    expect(() => db.transaction(() => ring.issue(db, 'admin', '2026-12-01T00:00:00Z', TEST_PASSPHRASE))()).toThrow(
      /^could not store a reviewer's private key at \S+\/not-a-folder\/case-1\/admin\.ed25519_[0-9a-f]{32}\.key \(ENOTDIR\); make the user data folder writable and try again$/,
    );
    expect(activeKeyId()).toBe(before);
  });
});
