import { randomBytes } from 'node:crypto';
import { canonicalJson } from '../../../shared/domain/canonical';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, forbidden } from '../errors';
import type { CaseDb } from '../store/caseFile';
import { keyIdOf, publicKeyObject, verifySignature, type SigningKey } from './keys';
import { assertOpenForChange } from './caseLock';

export const GENESIS_HASH = '0'.repeat(64);

export interface ReceiptInput {
  action: string;
  targets: readonly string[];
  body: Record<string, unknown>;
  /** The target's state before and after; stored as fingerprints so verification can recompute. */
  pre?: unknown;
  post?: unknown;
  artifacts?: Record<string, string>;
}

export interface ReceiptRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  /** Canonical JSON text, exactly as hashed. */
  targets: string;
  body: string;
  pre_state_fp: string | null;
  post_state_fp: string | null;
  artifact_digests: string;
  prev_hash: string;
  hash: string;
  /** Key id of the reviewer key that signed this receipt (see keys.ts). */
  signer: string | null;
  /** base64 Ed25519 signature over signedMessage(hash). */
  signature: string | null;
  /**
   * 32 hex digits drawn for this receipt: the hash covers what the receipt says only through a
   * digest salted with it (sealedDigest), so a reader shown the chain but not the content (a
   * team server's reviewer outside the receipt's clearance) can still verify the chain, and the
   * digest cannot be matched against a guess. null in receipts written before sealing (format 1),
   * whose hash covers the fields in clear.
   */
  salt: string | null;
}

/** The columns of audit_receipt, in one place for every reader that hashes or ships receipts. */
export const RECEIPT_COLUMNS = 'seq, at, actor, action, targets, body, pre_state_fp, post_state_fp, artifact_digests, prev_hash, hash, signer, signature, salt';

/** A receipt read as an array (better-sqlite3's raw mode, a third cheaper than objects), in RECEIPT_COLUMNS' order. */
export type RawReceipt = [number, string, string, string, string, string, string | null, string | null, string, string, string, string | null, string | null, string | null];
export const receiptOf = (r: RawReceipt): ReceiptRow => ({
  seq: r[0], at: r[1], actor: r[2], action: r[3], targets: r[4], body: r[5], pre_state_fp: r[6], post_state_fp: r[7],
  artifact_digests: r[8], prev_hash: r[9], hash: r[10], signer: r[11], signature: r[12], salt: r[13],
});

/** What the hash covers besides prev_hash: the stored row plus the previous receipt's signature. */
export type HashedFields = Omit<ReceiptRow, 'hash' | 'prev_hash' | 'signature'> & { prev_signature: string | null };

export const stateFingerprint = (state: unknown): string | null =>
  state === undefined || state === null ? null : sha256Hex(canonicalJson(state));

/** A nullable text field as JSON: a quoted string, or null. */
const str = (s: string | null): string => JSON.stringify(s);

/** The fields a receipt's seal covers: what it says, as opposed to its place in the chain. */
export type SealedFields = Pick<ReceiptRow, 'targets' | 'body' | 'pre_state_fp' | 'post_state_fp' | 'artifact_digests'>;

/**
 * Canonical JSON of what a receipt says (its targets, body, state fingerprints and artifact
 * digests). targets, body and artifact_digests are stored as canonical JSON already, so the text
 * is built by splicing them in (keys in canonical order) rather than parsing and re-serialising
 * them: that keeps verification close to the cost of hashing, and any byte changed in storage
 * still changes the hash. receipts.test.ts proves the result equals canonicalJson of the parts.
 */
export function sealedText(r: SealedFields): string {
  return (
    `{"artifact_digests":${r.artifact_digests},"body":${r.body},` +
    `"post_state_fp":${str(r.post_state_fp)},"pre_state_fp":${str(r.pre_state_fp)},"targets":${r.targets}}`
  );
}

/** The salted digest a sealed receipt's hash covers instead of what it says. */
export const sealedDigest = (salt: string, r: SealedFields): string => sha256Hex(`erwb-seal:v1:${salt}:${sealedText(r)}`);

/** A receipt's place in the chain: the fields its hash covers in clear, whether sealed or not. */
export type ChainFields = Pick<ReceiptRow, 'seq' | 'at' | 'actor' | 'action' | 'signer'>;

/**
 * The exact text a sealed receipt's hash covers besides prev_hash, from its chain fields and its
 * seal digest: all a reader needs who may not read what the receipt says.
 */
export function sealedHashBody(r: ChainFields, digest: string, prevSignature: string | null): string {
  return (
    `{"action":${JSON.stringify(r.action)},"actor":${JSON.stringify(r.actor)},"at":${JSON.stringify(r.at)},` +
    `"content_digest":${JSON.stringify(digest)},"prev_signature":${str(prevSignature)},"seq":${r.seq},"signer":${str(r.signer)}}`
  );
}

/**
 * The exact text a receipt's hash covers besides prev_hash: canonical JSON of its chain fields
 * and, for a sealed receipt, the salted digest of what it says (format 1: those fields in clear).
 *
 * prev_signature chains the signatures too: a signature cannot be swapped or stripped without
 * breaking the next hash, which is what lets verification check signatures only at the end of
 * each signer's run of receipts when it is asked to (see verify.ts).
 */
export function receiptHashBody(r: HashedFields): string {
  return hashBodyOf(r, r.prev_signature);
}

/** receiptHashBody for a stored row and the previous receipt's signature (no object copy: hot path). */
export function hashBodyOf(r: Omit<HashedFields, 'prev_signature'>, prevSignature: string | null): string {
  if (r.salt !== null) return sealedHashBody(r, sealedDigest(r.salt, r), prevSignature);
  return (
    `{"action":${JSON.stringify(r.action)},"actor":${JSON.stringify(r.actor)},` +
    `"artifact_digests":${r.artifact_digests},"at":${JSON.stringify(r.at)},"body":${r.body},` +
    `"post_state_fp":${str(r.post_state_fp)},"pre_state_fp":${str(r.pre_state_fp)},` +
    `"prev_signature":${str(prevSignature)},"seq":${r.seq},"signer":${str(r.signer)},"targets":${r.targets}}`
  );
}

export const chainHash = (prevHash: string, hashBody: string): string => sha256Hex(prevHash + hashBody);

/**
 * What a reviewer's key signs: the receipt hash under a domain tag, so a signature made for a
 * receipt can never be replayed as a signature over anything else the same key might sign.
 */
export const signedMessage = (hash: string): Buffer => Buffer.from(`erwb-receipt:v1:${hash}`, 'utf8');

/**
 * The acting reviewer's signing key, or the refusal appendReceipt would give: a caller about to
 * write something before its receipt (a worker taking a lease) asks first, so a refusal writes
 * nothing at all.
 */
export function signingKeyFor(ctx: ServiceContext, action: string): SigningKey {
  if (!ctx.keyring) {
    throw forbidden(`${action} refused: this session has no reviewer keys, so the change cannot be signed; open the case through a workbench session`);
  }
  return ctx.keyring.activeKey(ctx.db, ctx.actor.actorId, action);
}

/**
 * Appends one receipt, signed by the acting reviewer. Callers run it inside the same transaction
 * as the change it records, so a change without a receipt (or a receipt without its change) can
 * never be committed; and when this machine has no key for the reviewer it throws FORBIDDEN,
 * which rolls the change back with it.
 */
export function appendReceipt(ctx: ServiceContext, input: ReceiptInput): { seq: number; hash: string } {
  const { db } = ctx;
  if (!db.inTransaction) {
    throw new Error(`appendReceipt(${input.action}) must run inside the change's transaction`);
  }
  // A FINAL case takes no change but its reopening (DESIGN §3.10).
  assertOpenForChange(db, input.action);
  const key = signingKeyFor(ctx, input.action);
  const last = db.prepare('SELECT seq, actor, hash, signer, signature FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as
    | { seq: number; actor: string; hash: string; signer: string | null; signature: string | null }
    | undefined;
  if (last) assertPredecessorSigned(db, last, key.keyId, input.action);
  const fields: HashedFields = {
    seq: (last?.seq ?? 0) + 1,
    at: ctx.now(),
    actor: ctx.actor.actorId,
    action: input.action,
    targets: canonicalJson([...input.targets]),
    body: canonicalJson(input.body),
    pre_state_fp: stateFingerprint(input.pre),
    post_state_fp: stateFingerprint(input.post),
    artifact_digests: canonicalJson(input.artifacts ?? {}),
    signer: key.keyId,
    salt: drawSalt(),
    prev_signature: last ? last.signature : null,
  };
  const prevHash = last?.hash ?? GENESIS_HASH;
  const hash = chainHash(prevHash, receiptHashBody(fields));
  const { prev_signature: _prevSignature, ...stored } = fields;
  // A receipt registering a key is always signed: the keys it vouches for are relied on at once.
  const deferred = ctx.signatures === 'at-run-end' && !REGISTERING_ACTIONS.has(input.action);
  const signature = deferred ? null : key.sign(signedMessage(hash));
  db.prepare(
    `INSERT INTO audit_receipt (${RECEIPT_COLUMNS})
     VALUES (@seq, @at, @actor, @action, @targets, @body, @pre_state_fp, @post_state_fp,
       @artifact_digests, @prev_hash, @hash, @signer, @signature, @salt)`,
  ).run({ ...stored, prev_hash: prevHash, hash, signature });
  // Stryker disable next-line StringLiteral: a cache key that never matches only makes the next append verify the tip again
  verifiedTip.set(db, `${hash}:${signature}`);
  return { seq: fields.seq, hash };
}

/** Actions whose body registers a reviewer key (keys.ts): the chain is its own key directory. */
export const REGISTERING_ACTIONS: ReadonlySet<string> = new Set(['case:create', 'actor:create', 'actor:rekey']);

/**
 * The context an import applies its records in: its receipts are written unsigned and covered by
 * one signature at the end (closeSignedRun, before the import commits). Signing each receipt took
 * a sixth of an import's time (docs/import-speed.md), and one signature covers the run as well as
 * one each: a receipt's hash covers the previous hash and signature, so the signature that closes
 * the run commits the same key to every receipt in it. Verify accepts an unsigned receipt only
 * when the next one is by the same signer, and never at the end of the chain.
 */
export function signedAtRunEnd(ctx: ServiceContext): ServiceContext {
  return { ...ctx, signatures: 'at-run-end' };
}

/**
 * Closes a run of unsigned receipts (signedAtRunEnd) with one signed receipt, `audit:sign`, naming
 * the receipts it signs for; nothing when the last receipt is signed already (an import that
 * wrote nothing). Run inside the run's transaction, before it commits.
 */
export function closeSignedRun(ctx: ServiceContext): void {
  const tail = ctx.db.prepare('SELECT seq, signature FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as { seq: number; signature: string | null } | undefined;
  if (!tail || tail.signature !== null) return;
  // Read back from the tail: as far as the run goes, not the whole chain.
  const signedBefore = ctx.db.prepare('SELECT seq FROM audit_receipt WHERE signature IS NOT NULL ORDER BY seq DESC LIMIT 1').pluck().get() as number | undefined;
  const fromSeq = (signedBefore ?? 0) + 1;
  appendReceipt({ ...ctx, signatures: 'each' }, { action: 'audit:sign', targets: [], body: { signs: { fromSeq, toSeq: tail.seq } } });
}

/**
 * 16 random bytes for a receipt's salt, as hex. Drawn from the CSPRNG 64 salts at a time: one
 * call per receipt cost an import about 12 µs a record, most of it the call, not the randomness.
 */
function drawSalt(): string {
  if (saltAt === saltPool.length) {
    saltPool = randomBytes(SALT_BYTES * 64);
    saltAt = 0;
  }
  saltAt += SALT_BYTES;
  return saltPool.toString('hex', saltAt - SALT_BYTES, saltAt);
}
const SALT_BYTES = 16;
let saltPool = Buffer.alloc(0);
let saltAt = 0;

/** The last receipt this process appended or checked, per connection: it need not be checked again. */
const verifiedTip = new WeakMap<object, string>();

/**
 * A new receipt's signature covers everything before it, so a reviewer must not sign on top of a
 * receipt nobody signed: something written into the file outside the workbench would otherwise be
 * vouched for by the next honest signature. The key comes from the receipt that registered it in
 * the chain, not from actor_key, which anyone with the file could replace.
 */
function assertPredecessorSigned(
  db: CaseDb,
  last: { seq: number; actor: string; hash: string; signer: string | null; signature: string | null },
  signer: string,
  action: string,
): void {
  const refuse = (why: string) =>
    conflict(`${action} refused: the last receipt (seq ${last.seq}) ${why}; the case file was changed outside the workbench or predates signatures. Run audit:verify (or cli verify) before working on it`);
  // Keyed by hash and signature: either could be changed by another connection under our feet.
  if (verifiedTip.get(db) === `${last.hash}:${last.signature}`) {
    // An unsigned tip is this process's own run (signedAtRunEnd): only its signer may go on from it.
    if (last.signature === null && last.signer !== signer) throw refuse(`waits for its signer ${last.signer}'s signature`);
    return;
  }
  if (!last.signer || !last.signature) throw refuse('is unsigned');
  let reg: { publicKey: string | null } | undefined;
  try {
    reg = db
      .prepare(
        `SELECT json_extract(body, '$.registersKey.publicKey') AS publicKey FROM audit_receipt
         WHERE action IN ('case:create', 'actor:create', 'actor:rekey')
           AND json_extract(body, '$.registersKey.keyId') = ? AND json_extract(body, '$.registersKey.actorId') = ?`,
      )
      .get(last.signer, last.actor) as { publicKey: string | null } | undefined;
  } catch {
    throw refuse('cannot be checked: a key registration receipt is not valid JSON');
  }
  if (!reg?.publicKey || keyIdOf(reg.publicKey) !== last.signer) throw refuse(`is signed by ${last.signer}, which no receipt registered for ${last.actor}`);
  if (!verifySignature(publicKeyObject(reg.publicKey), signedMessage(last.hash), last.signature)) throw refuse('carries a signature that does not verify');
  // Stryker disable next-line StringLiteral: a cache key that never matches only makes the next append verify the tip again
  verifiedTip.set(db, `${last.hash}:${last.signature}`);
}
