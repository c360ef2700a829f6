import { generateKeyPairSync, sign } from 'node:crypto';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Keyring, verifySignature } from './keys';

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
  });
});
