import { createCipheriv, createDecipheriv, createPrivateKey, randomBytes, scryptSync, type KeyObject } from 'node:crypto';

/**
 * A reviewer's private key at rest (issue 9.4): the PKCS#8 DER sealed with AES-256-GCM under a
 * key derived from the reviewer's passphrase by scrypt. The file says which key it holds (its
 * key id, in clear) so the right file is found without trying passphrases, and the GCM tag makes
 * a wrong passphrase, or an edited file, fail instead of yielding a wrong key.
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** About 0.1 s and 32 MiB per unlock on a laptop: cheap once per session, dear per guess. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };

export const SEALED_KEY_FORMAT = 'erwb-sealed-key/1';

interface SealedKeyFile {
  format: typeof SEALED_KEY_FORMAT;
  actorId: string;
  keyId: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: { name: 'aes-256-gcm'; iv: string; tag: string };
  sealed: string;
}

export class WrongPassphrase extends Error {}

const deriveKey = (passphrase: string, salt: Buffer, cost: ScryptCost): Buffer =>
  scryptSync(passphrase.normalize('NFC'), salt, 32, { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r });

/** What is authenticated with the ciphertext, so a sealed key cannot be relabelled as another. */
const associated = (actorId: string, keyId: string) => Buffer.from(`${SEALED_KEY_FORMAT}\u0000${actorId}\u0000${keyId}`);

export function sealPrivateKey(key: KeyObject, who: { actorId: string; keyId: string }, passphrase: string, cost: ScryptCost): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(passphrase, salt, cost), iv);
  cipher.setAAD(associated(who.actorId, who.keyId));
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const sealed = Buffer.concat([cipher.update(der), cipher.final()]);
  const file: SealedKeyFile = {
    format: SEALED_KEY_FORMAT,
    actorId: who.actorId,
    keyId: who.keyId,
    kdf: { name: 'scrypt', ...cost, salt: salt.toString('base64') },
    cipher: { name: 'aes-256-gcm', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64') },
    sealed: sealed.toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The key id a sealed file says it holds, or null when the text is not a sealed key. */
export function sealedKeyId(text: string): string | null {
  try {
    const file = JSON.parse(text) as Partial<SealedKeyFile>;
    return file.format === SEALED_KEY_FORMAT && typeof file.keyId === 'string' ? file.keyId : null;
  } catch {
    return null;
  }
}

/** The private key, or WrongPassphrase when the passphrase (or the file) does not open it. */
export function openSealedKey(text: string, passphrase: string): KeyObject {
  const file = JSON.parse(text) as SealedKeyFile;
  if (file.format !== SEALED_KEY_FORMAT || file.kdf?.name !== 'scrypt' || file.cipher?.name !== 'aes-256-gcm') {
    throw new Error(`not a ${SEALED_KEY_FORMAT} file`);
  }
  const { N, r, p } = file.kdf;
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(passphrase, Buffer.from(file.kdf.salt, 'base64'), { N, r, p }), Buffer.from(file.cipher.iv, 'base64'));
  decipher.setAAD(associated(file.actorId, file.keyId));
  decipher.setAuthTag(Buffer.from(file.cipher.tag, 'base64'));
  let der: Buffer;
  try {
    der = Buffer.concat([decipher.update(Buffer.from(file.sealed, 'base64')), decipher.final()]);
  } catch {
    throw new WrongPassphrase('the passphrase does not open this key');
  }
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}
