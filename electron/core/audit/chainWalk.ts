import type { KeyObject } from 'node:crypto';
import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import type { CaseDb } from '../store/caseFile';
import { keyIdOf, publicKeyObject, verifySignature, type KeyRegistration } from './keys';
import { chainHash, GENESIS_HASH, hashBodyOf, RECEIPT_COLUMNS, receiptOf, REGISTERING_ACTIONS, signedMessage, type RawReceipt, type ReceiptRow } from './receipts';
import { formatHead, parseHead, parseOr } from './receiptViews';
import { CASE_STATE_CHECKS, STATE_CHECKS } from './stateCheckList';
import { StateCollector, StoredReceiptFacts } from './stateChecks';
import type { ResumePoint, VerifyOptions } from './verifyOptions';

/**
 * The walk over a receipt chain that verify.ts drives: what each receipt must be to fit (its seq,
 * hashes, signer and state), and the signature checks it hands out as jobs.
 */

export type Broken = NonNullable<ChainVerification['firstBroken']>;

interface Run {
  signer: string;
  key: KeyObject;
  start: number;
  end: number;
  hash: string;
  signature: string;
}

interface ChainKey {
  actorId: string;
  publicKey: string;
  key: KeyObject;
  retiredAt: number | null;
}

/** One signature to check; `run` is set in 'run-ends' mode, to find the bad receipt when it fails. */
export interface SignatureJob {
  seq: number;
  /** The first receipt this signature signs for: itself, or the unsigned receipts of its run before it. */
  from: number;
  key: KeyObject;
  hash: string;
  signature: string;
  run: Run | null;
}

const PAGE = 4096;
export const badSignature = (from: number, seq: number): Broken => ({
  seq: from,
  kind: 'signature',
  reason:
    (from < seq ? `seq ${seq} signs for seq ${from}–${seq}, and its signature` : 'the signature') +
    " does not verify against the signer's registered public key: the receipt was re-hashed or its signature replaced without the reviewer's private key",
});

const NOT_JSON = 'targets or artifact digests are not valid JSON';

/** Stored text is attacker-controlled once the file left our hands: undefined when it is not JSON. */
const parseJson = <T>(text: string): T | undefined => parseOr<T | undefined>(text, undefined);

/**
 * Walks the chain in seq order, page by page, and finds the first receipt that does not fit: a gap
 * in seq (deletion or reordering), a prev_hash that is not the previous hash, a hash that does not
 * cover the stored receipt (an edit), a signature that is missing, by the wrong reviewer's key or
 * invalid, a table that no longer matches what a receipt recorded, or a chain that stops short of
 * (or differs at) an expected head. Keys come from the receipts that registered them, never from
 * the actor_key table, so a replaced table cannot vouch for forged signatures. Signature checks
 * are handed out as jobs so the async driver can run them on other cores while it hashes on.
 */
export class ChainWalk {
  readonly mode: 'every' | 'run-ends';
  private readonly expected: { seq: number; hash: string } | null;
  private readonly keys = new Map<string, ChainKey>();
  private readonly admins = new Set<string>();
  private readonly state: StateCollector;
  private readonly page;
  private prevHash = GENESIS_HASH;
  private prevSig: string | null = null;
  /** Whether the previous receipt was sealed: a chain never goes back to unsealed receipts. */
  private prevSealed = false;
  private hashAtExpected: string | null = null;
  private run: Run | null = null;
  /**
   * The first of the unsigned receipts read since the last signature, and their signer: the next
   * signed receipt must be that signer's, and signs for them (receipts.ts, signedAtRunEnd).
   */
  private unsigned: { seq: number; signer: string } | null = null;
  private after = 0;
  /** Read from the signed first receipt, never from a table an editor could change. */
  private exactTimes = false;
  private readonly targetsSeen = new Map<string, string[]>();
  length = 0;
  verified = 0;
  rootKey: string | null = null;
  broken: Broken | null = null;
  done = false;

  constructor(
    private readonly db: CaseDb,
    private readonly options: VerifyOptions,
    private readonly submit: (job: SignatureJob) => void,
  ) {
    this.mode = options.signatures ?? 'every';
    this.expected = options.expectedHead === undefined ? null : parseHead(options.expectedHead);
    if (options.expectedHead !== undefined && !this.expected) {
      throw new TypeError(`verifyChain: ${options.expectedHead} is not a head of the form erwb-head:<seq>:<hash>`);
    }
    const resume = options.resume;
    if (options.changed && !resume) throw new TypeError('verifyChain: changed rows are verified from a resume point; without one, verify in full');
    this.state = new StateCollector(db, STATE_CHECKS, CASE_STATE_CHECKS, resume ? 'since-resume' : 'whole-chain', options.changed ?? null);
    this.page = db.prepare(`SELECT ${RECEIPT_COLUMNS} FROM audit_receipt WHERE seq > ? ORDER BY seq LIMIT ?`);
    if (resume) {
      if (this.expected) throw new TypeError('verifyChain: a routine verification cannot check an expected head; verify in full');
      for (const k of resume.keys) this.keys.set(k.keyId, { actorId: k.actorId, publicKey: k.publicKey, key: publicKeyObject(k.publicKey), retiredAt: k.retiredAt });
      for (const a of resume.admins) this.admins.add(a);
      this.rootKey = resume.rootKey;
      this.exactTimes = resume.exactTimes;
      this.prevHash = resume.hash;
      this.prevSig = resume.signature;
      this.prevSealed = resume.sealed ?? false;
      this.length = resume.seq;
      this.after = resume.seq;
      this.from = resume.seq;
      if (options.changed) this.done = (this.broken = this.checkAgain(resume.seq, options.changed.targets)) !== null;
    }
  }

  /** Hands the state checks, in seq order, every receipt up to `through` naming one of `targets`: changed rows are held to all their receipts. */
  private checkAgain(through: number, targets: ReadonlySet<string>): Broken | null {
    if (targets.size === 0) return null;
    const rows = this.db
      .prepare(`SELECT ${RECEIPT_COLUMNS} FROM audit_receipt WHERE seq IN (SELECT seq FROM receipt_target WHERE target IN (SELECT value FROM json_each(?)) AND seq <= ?) ORDER BY seq`)
      .raw(true)
      .all(JSON.stringify([...targets]), through) as RawReceipt[];
    for (const row of rows.map(receiptOf)) {
      const facts = this.factsOf(row, parseJson<string[]>(row.targets));
      if (!facts) return { seq: row.seq, kind: 'chain', reason: NOT_JSON };
      this.state.observeAgain(facts, true);
    }
    return null;
  }

  /** What the state checks read of a receipt (its targets parsed); null when its targets or artifact digests are not JSON. */
  private factsOf(row: ReceiptRow, targets: unknown): StoredReceiptFacts | null {
    // Stryker disable next-line StringLiteral: equivalent; the fast path for the usual '{}' parses to the same {}
    const artifacts = row.artifact_digests === '{}' ? {} : parseJson<Record<string, string>>(row.artifact_digests);
    if (!Array.isArray(targets) || !artifacts || typeof artifacts !== 'object') return null;
    return new StoredReceiptFacts(row.seq, row.at, this.exactTimes, row.action, row.actor, targets, row.body, row.post_state_fp, artifacts);
  }

  /** The seq a routine verification started after (0: the whole chain). */
  from = 0;

  /** Where this walk stands, to resume from; only meaningful once it verified. */
  resumePoint(): ResumePoint {
    return {
      seq: this.length,
      hash: this.prevHash,
      signature: this.prevSig,
      sealed: this.prevSealed,
      keys: [...this.keys].map(([keyId, k]) => ({ keyId, actorId: k.actorId, publicKey: k.publicKey, retiredAt: k.retiredAt })),
      admins: [...this.admins],
      rootKey: this.rootKey,
      exactTimes: this.exactTimes,
    };
  }

  /** Examines the next page; sets `done` at the end of the chain or at the first break. */
  nextPage(): void {
    // Rows as arrays, turned into receipts here: a third cheaper than better-sqlite3 building
    // objects, and reading rows is most of a chain walk. raw() is set per page because the
    // connection's statement cache may hand this statement to another reader in between.
    const rows = (this.page.raw(true).all(this.after, PAGE) as RawReceipt[]).map(receiptOf);
    for (const row of rows) {
      const broken = this.examine(row);
      if (broken) {
        this.broken = broken;
        this.done = true;
        return;
      }
      this.length += 1;
      this.after = row.seq;
    }
    if (rows.length < PAGE) this.done = true;
  }

  /** Checks one signature now, counting it. */
  check(job: SignatureJob): boolean {
    this.verified += 1;
    return verifySignature(job.key, signedMessage(job.hash), job.signature);
  }

  /** After a failed run-end signature: the first receipt of the run whose own signature fails. */
  pinpoint(run: Run): Broken | null {
    const rows = this.db.prepare('SELECT seq, hash, signature FROM audit_receipt WHERE seq BETWEEN ? AND ? ORDER BY seq').all(run.start, run.end) as {
      seq: number;
      hash: string;
      signature: string | null;
    }[];
    let from = run.start;
    for (const r of rows) {
      // An unsigned receipt has nothing of its own to check: the next signature signs for it.
      if (r.signature === null) continue;
      if (!this.check({ seq: r.seq, from, key: run.key, hash: r.hash, signature: r.signature, run: null })) return badSignature(from, r.seq);
      from = r.seq + 1;
    }
    return null;
  }

  /** The stream ended (or broke): closes the open run and hands it out as the last job. Only 'run-ends' mode has runs. */
  closeOpenRun(): Run | null {
    const open = this.run;
    this.run = null;
    if (open && !this.broken) this.submit({ seq: open.end, from: open.start, key: open.key, hash: open.hash, signature: open.signature, run: open });
    return open;
  }

  /** Combines the stream's break, signature failures, the head and the state checks. */
  result(signatureBreak: Broken | null): ChainVerification {
    let broken = this.broken;
    if (signatureBreak && (!broken || signatureBreak.seq < broken.seq)) broken = signatureBreak;
    // Receipts still waiting for their signer's signature when the chain ends (or breaks) are signed by nobody.
    if (this.unsigned && (!broken || this.unsigned.seq < broken.seq)) {
      broken = { seq: this.unsigned.seq, kind: 'signature', reason: `the receipt is unsigned and no signature of its signer ${this.unsigned.signer} follows it: the run it belongs to was cut short or its closing signature stripped` };
    }
    if (!broken && this.expected) broken = this.headProblem();
    const stateBreak = this.state.finish(this.length, broken === null);
    if (stateBreak && (!broken || stateBreak.seq < broken.seq)) broken = { seq: stateBreak.seq, kind: 'state', reason: stateBreak.reason };
    const verifiedLength = broken ? Math.min(this.length, broken.seq - 1) : this.length;
    const headHash =
      verifiedLength === this.length ? this.prevHash : (this.db.prepare('SELECT hash FROM audit_receipt WHERE seq = ?').pluck().get(verifiedLength) as string);
    if (broken === null) this.options.reached?.(this.resumePoint());
    return {
      ok: broken === null,
      routine: this.from > 0 ? { since: this.from } : null,
      length: verifiedLength,
      head: verifiedLength ? formatHead(verifiedLength, headHash) : null,
      firstBroken: broken,
      signatures: { mode: this.mode, verified: this.verified },
      fingerprints: { checked: this.state.checked, unchecked: this.state.unchecked },
      rootKey: this.rootKey,
      expectedHead: this.options.expectedHead ?? null,
    };
  }

  private examine(row: ReceiptRow): Broken | null {
    const seq = row.seq;
    const expectedSeq = this.length + 1;
    if (seq !== expectedSeq) {
      return { seq: Math.min(seq, expectedSeq), kind: 'chain', reason: `expected seq ${expectedSeq} but found ${seq}: a receipt was removed, inserted or reordered` };
    }
    if (row.prev_hash !== this.prevHash) return { seq, kind: 'chain', reason: `prev_hash does not match the hash of seq ${seq - 1}` };
    if (row.signer === null || (row.signature === null && REGISTERING_ACTIONS.has(row.action))) {
      return { seq, kind: 'signature', reason: 'the receipt is unsigned (written before reviewer signatures, or its signature was stripped); it cannot be attributed' };
    }
    const waiting = this.unsigned;
    if (waiting && row.signer !== waiting.signer) {
      return { seq: waiting.seq, kind: 'signature', reason: `the receipt is unsigned and the next signer is not its own: seq ${seq} is signed by ${row.signer}, not ${waiting.signer}, so nothing signs for seq ${waiting.seq}–${seq - 1}` };
    }
    if (row.salt === null && this.prevSealed) {
      return { seq, kind: 'chain', reason: `the receipt is unsealed (its salt is missing) but follows sealed receipts: its salt was removed, or it was written outside the workbench` };
    }
    if (chainHash(row.prev_hash, hashBodyOf(row, this.prevSig)) !== row.hash) {
      return { seq, kind: 'chain', reason: "hash does not cover the stored receipt: a field was edited (or the previous receipt's signature was replaced)" };
    }
    let registration: KeyRegistration | undefined;
    if (REGISTERING_ACTIONS.has(row.action)) {
      registration = parseJson<{ registersKey?: KeyRegistration }>(row.body)?.registersKey;
      if (!registration) return { seq, kind: 'signature', reason: `${row.action} registers no reviewer key (or its body is not JSON)` };
      if (keyIdOf(registration.publicKey) !== registration.keyId) {
        return { seq, kind: 'signature', reason: `registered key ${registration.keyId} does not match its public key` };
      }
      // Only the case creator's key vouches for itself: it is the root every other key hangs from.
      if (seq === 1 && row.action === 'case:create' && registration.actorId === row.actor && registration.keyId === row.signer) {
        this.keys.set(registration.keyId, { actorId: row.actor, publicKey: registration.publicKey, key: publicKeyObject(registration.publicKey), retiredAt: null });
        this.admins.add(row.actor);
        this.rootKey = registration.keyId;
      }
    }
    const signer = this.keys.get(row.signer);
    if (!signer) return { seq, kind: 'signature', reason: `signed by key ${row.signer}, which no earlier receipt registered` };
    if (signer.actorId !== row.actor) {
      return { seq, kind: 'signature', reason: `signed by ${row.signer}, a key of ${signer.actorId}, not of the receipt's actor ${row.actor}` };
    }
    if (signer.retiredAt !== null) return { seq, kind: 'signature', reason: `signed by ${row.signer} after it was retired at seq ${signer.retiredAt}` };
    if (row.signature === null) {
      this.unsigned ??= { seq, signer: row.signer };
    } else if (this.mode === 'every') {
      this.submit({ seq, from: waiting?.seq ?? seq, key: signer.key, hash: row.hash, signature: row.signature, run: null });
    } else if (this.run && this.run.signer === row.signer) {
      // Extended in place: a million receipts should not mean a million run objects.
      this.run.end = seq;
      this.run.hash = row.hash;
      this.run.signature = row.signature;
    } else {
      // A new signer: the previous run is checked before any key it registered is relied on.
      const closed = this.run;
      if (closed) this.submit({ seq: closed.end, from: closed.start, key: closed.key, hash: closed.hash, signature: closed.signature, run: closed });
      this.run = { signer: row.signer, key: signer.key, start: waiting?.seq ?? seq, end: seq, hash: row.hash, signature: row.signature };
    }
    if (row.signature !== null) this.unsigned = null;
    if (registration && seq > 1) {
      const bad = this.register(seq, row, registration);
      if (bad) return bad;
    }
    // Stored text is attacker-controlled once the file left our hands: parse defensively. Many
    // receipts name the same targets, so each distinct text is parsed (and indexed) once.
    let targets = this.targetsSeen.get(row.targets);
    const fresh = targets === undefined;
    if (fresh) {
      targets = parseJson<string[]>(row.targets);
      if (Array.isArray(targets)) {
        if (this.targetsSeen.size > 200_000) this.targetsSeen.clear();
        this.targetsSeen.set(row.targets, targets);
      }
    }
    if (seq === 1 && row.action === 'case:create') this.exactTimes = parseJson<{ rowTimes?: string }>(row.body)?.rowTimes === 'receipt';
    const facts = this.factsOf(row, targets);
    if (!facts) return { seq, kind: 'chain', reason: NOT_JSON };
    this.state.observe(facts, fresh);
    if (this.expected && seq === this.expected.seq) this.hashAtExpected = row.hash;
    this.prevHash = row.hash;
    this.prevSig = row.signature;
    this.prevSealed = row.salt !== null;
    return null;
  }

  private register(seq: number, row: ReceiptRow, reg: KeyRegistration): Broken | null {
    if (!this.admins.has(row.actor)) return { seq, kind: 'signature', reason: `${row.actor} registered a key but is not an admin of this case` };
    if (this.keys.has(reg.keyId)) return { seq, kind: 'signature', reason: `key ${reg.keyId} was already registered` };
    for (const old of reg.retires) {
      const k = this.keys.get(old);
      if (!k || k.actorId !== reg.actorId) return { seq, kind: 'signature', reason: `retires ${old}, which is not a key of ${reg.actorId}` };
      if (k.retiredAt === null) k.retiredAt = seq;
    }
    // A reviewer has one active key: anything the registration did not list as retired is a forgery.
    for (const [id, k] of this.keys) {
      if (k.actorId === reg.actorId && k.retiredAt === null) return { seq, kind: 'signature', reason: `registers a second active key for ${reg.actorId} without retiring ${id}` };
    }
    this.keys.set(reg.keyId, { actorId: reg.actorId, publicKey: reg.publicKey, key: publicKeyObject(reg.publicKey), retiredAt: null });
    if (row.action === 'actor:create' && parseJson<{ role?: string }>(row.body)?.role === 'admin') this.admins.add(reg.actorId);
    return null;
  }

  private headProblem(): Broken | null {
    const expected = this.expected!;
    if (this.length < expected.seq) {
      return { seq: this.length + 1, kind: 'head', reason: `the chain ends at seq ${this.length} but the expected head is seq ${expected.seq}: receipts ${this.length + 1}..${expected.seq} are missing (the tail was truncated)` };
    }
    if (expected.seq > 0 && this.hashAtExpected !== expected.hash) {
      return { seq: expected.seq, kind: 'head', reason: `seq ${expected.seq} has hash ${this.hashAtExpected?.slice(0, 12)}…, not the expected head's ${expected.hash.slice(0, 12)}…: the chain was rewritten at or before seq ${expected.seq}` };
    }
    return null;
  }
}

