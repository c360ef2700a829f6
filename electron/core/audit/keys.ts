import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../crypto';
import { forbidden, WorkbenchError } from '../errors';
import type { CaseDb } from '../store/caseFile';
import { DEFAULT_SCRYPT_COST, openSealedKey, sealedKeyId, sealPrivateKey, WrongPassphrase, type ScryptCost } from './sealedKey';

/**
 * Reviewer signing keys (DESIGN §3.7, issue 4). Each reviewer profile has an Ed25519 key pair; the
 * public half travels inside the case file (in the receipt that registered it, indexed by
 * actor_key) so anyone can verify signatures; the private half never enters the case file and
 * lives in this machine's user data directory, sealed with the reviewer's passphrase (issue 9.4).
 */

/** What a receipt body carries when it registers a key; verification builds its keyring from these. */
export interface KeyRegistration {
  actorId: string;
  keyId: string;
  /** base64 of the SPKI DER encoding. */
  publicKey: string;
  /** Keys of the same reviewer this registration retires (they sign nothing after this receipt). */
  retires: string[];
}

export interface SigningKey {
  keyId: string;
  /** base64 Ed25519 signature over `message`. */
  sign(message: Uint8Array): string;
}

/** What services and appendReceipt need: the acting reviewer's unlocked key, and a way to issue keys. */
export interface KeySource {
  issue(db: CaseDb, actorId: string, at: string, passphrase: string): KeyRegistration;
  activeKey(db: CaseDb, actorId: string, action: string): SigningKey;
}

/**
 * A key source that signs with one key held earlier. A reviewer replacing their own key signs
 * that receipt with the key being replaced: only an already-trusted key may vouch for a new one.
 */
export function pinnedKeySource(base: Pick<KeySource, 'issue'>, key: SigningKey): KeySource {
  return { issue: (db, actorId, at, passphrase) => base.issue(db, actorId, at, passphrase), activeKey: () => key };
}

/** A stable, short name for a public key: receipts carry it as `signer`. */
export const keyIdOf = (publicKeyBase64: string): string =>
  `ed25519:${sha256Hex(Buffer.from(publicKeyBase64, 'base64')).slice(0, 32)}`;

export function publicKeyObject(publicKeyBase64: string): KeyObject {
  return createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
}

/**
 * The signature bytes, or null unless the text is their one canonical base64 form: Node's decoder
 * forgives edited padding and stray characters, and a signature whose stored text can change
 * without changing its bytes would let an edit slip past the signature check.
 */
export function decodeSignature(signatureBase64: string): Buffer | null {
  const bytes = Buffer.from(signatureBase64, 'base64');
  return bytes.length === 64 && bytes.toString('base64') === signatureBase64 ? bytes : null;
}

export function verifySignature(publicKey: KeyObject, message: Uint8Array, signatureBase64: string): boolean {
  const bytes = decodeSignature(signatureBase64);
  if (!bytes) return false;
  try {
    return verify(null, message, publicKey, bytes);
  } catch {
    return false;
  }
}


/** base64 SPKI DER of a public key, or of the public half of a private key. */
const spkiBase64 = (key: KeyObject): string =>
  ((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');

/** Actor ids may contain ':' and '@' (see schemas.Id); keep file names portable to Windows. */
const fileSafe = (text: string): string => text.replace(/[^A-Za-z0-9._@-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

const signingKey = (keyId: string, key: KeyObject): SigningKey => ({
  keyId,
  sign: (message) => sign(null, message, key).toString('base64'),
});

/** A key just issued: what its receipt records, and the key itself for the session that issued it. */
export interface IssuedKey {
  registration: KeyRegistration;
  signingKey: SigningKey;
}

/**
 * The private keys this machine holds for one case, one sealed file per key at
 * `<keysDir>/<caseId>/<actor>.<keyId>.key`. A file is named by the key it holds, so a rekey in
 * a copy of the case (which shares the case id) or in a restored backup adds a file and never
 * replaces the key another copy still registers (issue 9.5). A key is written inside the
 * transaction that registers it; a file left by a rolled-back registration holds no registered
 * key and is never read. Nothing here keeps a key unlocked: that belongs to a Seat.
 */
export class Keyring {
  constructor(
    readonly keysDir: string,
    readonly caseId: string,
    readonly cost: ScryptCost = DEFAULT_SCRYPT_COST,
  ) {}

  get caseDir(): string {
    return join(this.keysDir, this.caseId);
  }

  keyPath(actorId: string, keyId: string): string {
    return join(this.caseDir, `${fileSafe(actorId)}.${keyId.replace(/[^A-Za-z0-9]/g, '_')}.key`);
  }

  /**
   * Creates a key pair for `actorId`, registers its public key in actor_key (retiring the
   * reviewer's previous key) and stores the private key sealed with `passphrase`. Runs inside the
   * caller's transaction; the registration belongs in that transaction's receipt body.
   */
  issue(db: CaseDb, actorId: string, at: string, passphrase: string): IssuedKey {
    if (!db.inTransaction) throw new Error(`Keyring.issue(${actorId}) must run inside the registering transaction`);
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicKeyBase64 = spkiBase64(publicKey);
    const keyId = keyIdOf(publicKeyBase64);
    const retires = (
      db.prepare('SELECT key_id FROM actor_key WHERE actor_id = ? AND retired_at IS NULL').all(actorId) as { key_id: string }[]
    ).map((r) => r.key_id);
    db.prepare('UPDATE actor_key SET retired_at = ? WHERE actor_id = ? AND retired_at IS NULL').run(at, actorId);
    db.prepare(
      `INSERT INTO actor_key (key_id, actor_id, algorithm, public_key, registered_at) VALUES (?, ?, 'ed25519', ?, ?)`,
    ).run(keyId, actorId, publicKeyBase64, at);
    this.writeKeyFile(this.keyPath(actorId, keyId), sealPrivateKey(privateKey, { actorId, keyId }, passphrase, this.cost));
    return { registration: { actorId, keyId, publicKey: publicKeyBase64, retires }, signingKey: signingKey(keyId, privateKey) };
  }

  /**
   * Opens the key `actorId` signs with in this case (the one registered as active) with their
   * passphrase. FORBIDDEN when the case registers no key for them, when this machine does not
   * hold it, or when the passphrase does not open it; so a case carried to a machine without the
   * reviewer's key can be read and verified by others but not changed in their name.
   */
  unlock(db: CaseDb, actorId: string, passphrase: string, action: string): SigningKey {
    const row = db.prepare('SELECT key_id FROM actor_key WHERE actor_id = ? AND retired_at IS NULL').get(actorId) as
      | { key_id: string }
      | undefined;
    if (!row) {
      throw forbidden(
        `${action} refused: reviewer ${actorId} has no signing key registered in this case (the case file predates reviewer signatures or was altered); ask an admin to issue one with actor:rekey`,
      );
    }
    const path = this.keyPath(actorId, row.key_id);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : this.sealLegacyKey(actorId, row.key_id, passphrase);
    if (text === null || sealedKeyId(text) !== row.key_id) {
      throw forbidden(
        `${action} refused: no signing key for reviewer ${actorId} on this machine (this case registers ${row.key_id}); every change is signed by the acting reviewer. Copy ${path} from the machine where the key was issued, or ask an admin here to issue a new key with actor:rekey. Reading and verifying the case still work.`,
      );
    }
    let key: KeyObject;
    try {
      key = openSealedKey(text, passphrase);
    } catch (err) {
      if (err instanceof WrongPassphrase) throw forbidden(`${action} refused: wrong passphrase for reviewer ${actorId}`);
      throw forbidden(`${action} refused: the key file ${path} is unreadable (${(err as Error).message}); restore it or ask an admin to issue a new key with actor:rekey`);
    }
    if (keyIdOf(spkiBase64(key)) !== row.key_id) {
      throw forbidden(`${action} refused: the key file ${path} does not hold the key this case registers for ${actorId}`);
    }
    return signingKey(row.key_id, key);
  }

  /** Seals `actorId`'s active key under a new passphrase; the current one must open it first. */
  reseal(db: CaseDb, actorId: string, current: string, next: string): void {
    const key = this.unlock(db, actorId, current, 'actor:passphrase');
    const path = this.keyPath(actorId, key.keyId);
    this.writeKeyFile(path, sealPrivateKey(openSealedKey(readFileSync(path, 'utf8'), current), { actorId, keyId: key.keyId }, next, this.cost));
  }

  /**
   * Keys written before passphrases (plain PEM: `<actor>.pem`, `<actor>.pem.next` or
   * `<actor>.<keyId>.pem`) are sealed with the passphrase of their first unlock and the plain
   * copy removed; until then they were as exposed as before, and from then on they are not.
   */
  private sealLegacyKey(actorId: string, keyId: string, passphrase: string): string | null {
    const base = join(this.caseDir, fileSafe(actorId));
    for (const candidate of [`${base}.pem`, `${base}.pem.next`, `${base}.${keyId.replace(/[^A-Za-z0-9]/g, '_')}.pem`]) {
      let key: KeyObject;
      try {
        // A candidate that is missing or holds no key is passed over alike.
        key = createPrivateKey(readFileSync(candidate, 'utf8'));
      } catch {
        continue;
      }
      if (keyIdOf(spkiBase64(key)) !== keyId) continue;
      const text = sealPrivateKey(key, { actorId, keyId }, passphrase, this.cost);
      this.writeKeyFile(this.keyPath(actorId, keyId), text);
      rmSync(candidate);
      return text;
    }
    return null;
  }

  private writeKeyFile(path: string, text: string): void {
    try {
      mkdirSync(this.caseDir, { recursive: true, mode: 0o700 });
      // mkdir's mode is masked by umask and ignored for existing directories: set it explicitly.
      chmodSync(this.keysDir, 0o700);
      chmodSync(this.caseDir, 0o700);
      const tmp = `${path}.tmp`;
      // Stryker disable next-line ObjectLiteral: the chmod below sets the same mode; creating the file with it closes the moment before, which no test can see
      writeFileSync(tmp, text, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, path);
    } catch (err) {
      // Thrown inside the registering transaction, so the profile or key is not created either.
      throw new WorkbenchError('INTERNAL', `could not store a reviewer's private key at ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); make the user data folder writable and try again`);
    }
  }
}
