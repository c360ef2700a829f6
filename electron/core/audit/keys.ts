import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../crypto';
import { forbidden, WorkbenchError } from '../errors';
import type { CaseDb } from '../store/caseFile';

/**
 * Reviewer signing keys (DESIGN §3.7, issue 4). Each reviewer profile has an Ed25519 key pair; the
 * public half travels inside the case file (in the receipt that registered it, indexed by
 * actor_key) so anyone can verify signatures; the private half never enters the case file and
 * lives in this machine's user data directory, one PEM per reviewer and case, mode 0600.
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

/** What services and appendReceipt need from a keyring; Keyring is the one implementation. */
export interface KeySource {
  issue(db: CaseDb, actorId: string, at: string): KeyRegistration;
  activeKey(db: CaseDb, actorId: string, action: string): SigningKey;
}

/**
 * A key source that signs with one key fetched earlier. A reviewer replacing their own key signs
 * that receipt with the key being replaced: only an already-trusted key may vouch for a new one.
 */
export function pinnedKeySource(base: KeySource, key: SigningKey): KeySource {
  return { issue: (db, actorId, at) => base.issue(db, actorId, at), activeKey: () => key };
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
const fileSafe = (actorId: string): string => actorId.replace(/[^A-Za-z0-9._@-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * The private keys this machine holds for one case, at `<keysDir>/<caseId>/<actor>.pem`. A key is
 * written inside the transaction that registers it. When it replaces a working key (actor:rekey)
 * it goes to `<actor>.pem.next` and takes the `.pem` name the first time it is used: so a
 * rolled-back rekey never destroys the key in use, and a crash after the commit still leaves the
 * registered key findable. A file left by a rolled-back registration holds no registered key and
 * is simply overwritten next time.
 */
export class Keyring implements KeySource {
  private readonly cache = new Map<string, KeyObject>();

  constructor(
    readonly keysDir: string,
    readonly caseId: string,
  ) {}

  get caseDir(): string {
    return join(this.keysDir, this.caseId);
  }

  keyPath(actorId: string): string {
    return join(this.caseDir, `${fileSafe(actorId)}.pem`);
  }

  /**
   * Where a key that was replaced on this machine is kept, by its id. Copies of a case share its
   * id and so this folder: a rekey in one copy (or in a backup that is later restored) must not
   * take away the key the other still registers as active (issue 9.5).
   */
  archivedKeyPath(actorId: string, keyId: string): string {
    return join(this.caseDir, `${fileSafe(actorId)}.${keyId.replace(/[^A-Za-z0-9]/g, '_')}.pem`);
  }

  /**
   * Creates a key pair for `actorId`, registers its public key in actor_key (retiring the
   * reviewer's previous key) and stores the private key on this machine. Runs inside the
   * caller's transaction; the returned registration belongs in that transaction's receipt body.
   */
  issue(db: CaseDb, actorId: string, at: string): KeyRegistration {
    if (!db.inTransaction) throw new Error(`Keyring.issue(${actorId}) must run inside the registering transaction`);
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicKeyBase64 = spkiBase64(publicKey);
    const keyId = keyIdOf(publicKeyBase64);
    // Decided before the old key is retired below: a working key is never overwritten in place.
    const path = this.keyPath(actorId);
    this.archiveCurrentKey(actorId, path);
    const target = existsSync(path) && this.holdsActiveKey(db, actorId, path) ? `${path}.next` : path;
    const retires = (
      db.prepare('SELECT key_id FROM actor_key WHERE actor_id = ? AND retired_at IS NULL').all(actorId) as { key_id: string }[]
    ).map((r) => r.key_id);
    if (retires.length) db.prepare('UPDATE actor_key SET retired_at = ? WHERE actor_id = ? AND retired_at IS NULL').run(at, actorId);
    db.prepare(
      `INSERT INTO actor_key (key_id, actor_id, algorithm, public_key, registered_at) VALUES (?, ?, 'ed25519', ?, ?)`,
    ).run(keyId, actorId, publicKeyBase64, at);
    this.writePrivateKey(target, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    this.cache.set(keyId, privateKey);
    return { actorId, keyId, publicKey: publicKeyBase64, retires };
  }

  /**
   * The key `actorId` signs with: the one registered as active in this case, if this machine
   * holds its private half. Anything else refuses the change (FORBIDDEN), so a case carried to a
   * machine without the reviewer's key can be read and verified but not changed in their name.
   */
  activeKey(db: CaseDb, actorId: string, action: string): SigningKey {
    const row = db.prepare('SELECT key_id FROM actor_key WHERE actor_id = ? AND retired_at IS NULL').get(actorId) as
      | { key_id: string }
      | undefined;
    if (!row) {
      throw forbidden(
        `${action} refused: reviewer ${actorId} has no signing key registered in this case (the case file predates reviewer signatures or was altered); ask an admin to issue one with actor:rekey`,
      );
    }
    const key = this.cache.get(row.key_id) ?? this.load(actorId, row.key_id, action);
    return { keyId: row.key_id, sign: (message) => sign(null, message, key).toString('base64') };
  }

  /** Keeps the key now at `path` under its id before a new one may replace it. */
  private archiveCurrentKey(actorId: string, path: string): void {
    for (const current of [path, `${path}.next`]) {
      if (!existsSync(current)) continue;
      try {
        const pem = readFileSync(current, 'utf8');
        const archived = this.archivedKeyPath(actorId, keyIdOf(spkiBase64(createPrivateKey(pem))));
        if (!existsSync(archived)) this.writePrivateKey(archived, pem);
      } catch {
        // An unreadable key file is no key to keep; the new key is written beside it as before.
      }
    }
  }

  private holdsActiveKey(db: CaseDb, actorId: string, path: string): boolean {
    try {
      const keyId = keyIdOf(spkiBase64(createPrivateKey(readFileSync(path, 'utf8'))));
      return db.prepare('SELECT 1 FROM actor_key WHERE key_id = ? AND actor_id = ? AND retired_at IS NULL').get(keyId, actorId) !== undefined;
    } catch {
      return false;
    }
  }

  private load(actorId: string, keyId: string, action: string): KeyObject {
    const path = this.keyPath(actorId);
    let foundOther = false;
    const archived = this.archivedKeyPath(actorId, keyId);
    for (const candidate of [path, `${path}.next`, archived]) {
      if (!existsSync(candidate)) continue;
      let key: KeyObject;
      try {
        key = createPrivateKey(readFileSync(candidate, 'utf8'));
      } catch {
        foundOther = true;
        continue;
      }
      if (keyIdOf(spkiBase64(key)) !== keyId) {
        foundOther = true;
        continue;
      }
      if (candidate === `${path}.next`) {
        try {
          renameSync(candidate, path);
        } catch {
          // Still usable from the .next file; the rename is retried on the next load.
        }
      }
      this.cache.set(keyId, key);
      return key;
    }
    const what = foundOther
      ? `the signing key on this machine for reviewer ${actorId} is not the one registered in this case (${keyId})`
      : `no signing key for reviewer ${actorId} on this machine`;
    throw forbidden(
      `${action} refused: ${what}; every change is signed by the acting reviewer. Copy ${path} from the machine where the key was issued, or ask an admin here to issue a new key with actor:rekey. Reading and verifying the case still work.`,
    );
  }

  private writePrivateKey(path: string, pem: string): void {
    try {
      mkdirSync(this.caseDir, { recursive: true, mode: 0o700 });
      // mkdir's mode is masked by umask and ignored for existing directories: set it explicitly.
      chmodSync(this.keysDir, 0o700);
      chmodSync(this.caseDir, 0o700);
      writeFileSync(path, pem, { mode: 0o600 });
      chmodSync(path, 0o600);
    } catch (err) {
      // Thrown inside the registering transaction, so the profile or key is not created either.
      throw new WorkbenchError('INTERNAL', `could not store a reviewer's private key at ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); make the user data folder writable and try again`);
    }
  }
}
