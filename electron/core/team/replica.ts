import type { ClientBase } from 'pg';
import { RECEIPT_COLUMNS, type ReceiptRow } from '../audit/receipts';
import { chainHead } from '../audit/receiptViews';
import { trackChanges } from '../audit/rowTargets';
import { verifyChain, type ResumePoint, type VerifyOptions } from '../audit/verify';
import type { ChangedRows } from '../audit/verifyOptions';
import type { VerificationMarks } from '../audit/verifyMarks';
import { conflict, forbidden, invalid, notFound, WorkbenchError } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { createCaseFile, removeUnfinishedCase, writeTransaction, type CaseDb } from '../store/caseFile';
import { applyImages, noteServerSeq, parseImagePart, serverSeq, startCapture, type RowImage } from '../store/replicaRows';
import { holdsHead } from './publish';
import { readReceipts, readRowPart, rowPoints, rowsPoint, teamHead } from './teamStore';

/**
 * Local replicas of a team case (issue 15): clone a case from the server into a new case file, and
 * pull what other reviewers pushed since. What arrives is the receipts and the images of the rows
 * they wrote; both are applied in one transaction, and the case file is then verified before it
 * commits: the chain, the signatures, and every row held to its receipt, the same verification as
 * `cli verify`. Whatever the server (or anyone who could write to it) sent that its receipts do
 * not say is refused with the whole pull, and the case file stays as it was.
 *
 * A clone is verified whole. A pull onto a file this machine verified before (a verification mark,
 * verifyMarks.ts) verifies what changed since: the receipts after the mark, and, for every row the
 * images changed, every receipt old or new that names what the row answers to (rowTargets.ts),
 * the row's own receipt, and the whole-case checks whose answer the change can move. That is
 * what a whole verification would find different, at the cost of what the pull brings rather
 * than of the whole case. Without a mark, with a row no target is known for, or when that
 * verification finds anything at all, the whole file is verified and its answer is the one given.
 *
 * A replica holds the whole case, so cloning and pulling need a clearance that covers every
 * receipt: a reviewer cleared for part of a case reads it on the server (row-level security), not
 * in a replica. Pulling is a fast-forward: a case file with receipts the server does not have,
 * made on an older head, is refused here; `team sync` (reconcile.ts) rebuilds such a file on the
 * server's head and takes its provisional actions again.
 */
/** A replica with receipts made on a head the server has moved past: a fast-forward cannot bring it up to date. */
export class DivergedReplica extends WorkbenchError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export interface PullResult {
  pulled: number;
  /** The seq this replica now holds, up to which the server had row images. */
  head: number;
  /** What was verified before it committed: what changed since this machine's last verification, or the whole file. */
  verified: 'changes' | 'whole' | 'nothing';
}

export interface PullOptions {
  /** This user's verification marks (marksOf): where a pull starts verifying, and where it leaves its mark; none: verify whole. */
  marks?: VerificationMarks | null;
}

interface Slice {
  receipts: ReceiptRow[];
  images: RowImage[];
}

const PAGE = 5_000;

/** The receipts (afterSeq, throughSeq], a page at a time, all of which the connected role must be able to read. */
async function* serverReceipts(client: ClientBase, caseId: string, afterSeq: number, throughSeq: number, command: string): AsyncGenerator<ReceiptRow[]> {
  let from = afterSeq;
  while (from < throughSeq) {
    const page = await readReceipts(client, caseId, from, Math.min(PAGE, throughSeq - from));
    if (page.length === 0) break;
    const rows: ReceiptRow[] = [];
    for (const r of page) {
      if (r.seq !== from + rows.length + 1) throw conflict(`team ${command}: the server sent receipt seq ${r.seq} where seq ${from + rows.length + 1} belongs; nothing was written`);
      if (!r.readable) {
        throw forbidden(`team ${command}: receipt seq ${r.seq} (${r.action}) concerns material outside your clearance; a replica holds the whole case, so it needs a reviewer cleared for all of it`);
      }
      const { content_digest: _digest, readable: _readable, ...row } = r;
      rows.push(row);
    }
    yield rows;
    from = page[page.length - 1]!.seq;
  }
  if (from !== throughSeq) throw conflict(`team ${command}: the server sent receipts up to seq ${from}, not ${throughSeq}; nothing was written`);
}

/**
 * The row images of the pushes (afterSeq, throughSeq], a part at a time, oldest first. Refused
 * before any part is read when the connected role's clearance does not cover them all (a replica
 * needs every row); and when a part the server counts is missing.
 */
async function serverImages(client: ClientBase, caseId: string, afterSeq: number, throughSeq: number, command: string): Promise<AsyncGenerator<RowImage[]>> {
  const { points, unreadable } = await rowPoints(client, caseId, afterSeq, throughSeq);
  if (unreadable > 0) {
    throw forbidden(`team ${command}: ${unreadable} pushes' rows concern material outside your clearance; a replica holds the whole case, so it needs a reviewer cleared for all of it`);
  }
  async function* parts(): AsyncGenerator<RowImage[]> {
    for (const point of points) {
      for (let part = 0; part < point.parts; part++) {
        const where = `part ${part + 1} of ${point.parts} of the rows pushed at seq ${point.throughSeq}`;
        const text = await readRowPart(client, caseId, point.throughSeq, part);
        if (text === null) throw conflict(`team ${command}: the server is missing ${where}; nothing was written`);
        let images: RowImage[];
        try {
          images = parseImagePart(text, where);
        } catch (err) {
          throw invalid(`team ${command}: from the server, ${(err as Error).message}; nothing was written`);
        }
        yield images;
      }
    }
  }
  return parts();
}

/** The whole of what a pull brings, in memory: a pull is what others pushed since this replica's last sync. */
async function serverSlice(client: ClientBase, caseId: string, afterSeq: number, throughSeq: number, command: string): Promise<Slice> {
  const images: RowImage[] = [];
  for await (const part of await serverImages(client, caseId, afterSeq, throughSeq, command)) for (const image of part) images.push(image);
  const receipts: ReceiptRow[] = [];
  for await (const page of serverReceipts(client, caseId, afterSeq, throughSeq, command)) for (const r of page) receipts.push(r);
  return { receipts, images };
}

interface Applied {
  verified: 'changes' | 'whole';
  /** Where the verification reached, to mark once the pull committed. */
  reached: ResumePoint | null;
}

/** Whether what changed since the mark verifies; a verification that cannot run (a file without the receipt index) is a no too, and the whole file is verified. */
function verifiesSince(db: CaseDb, options: VerifyOptions): boolean {
  try {
    return verifyChain(db, options).ok;
  } catch {
    return false;
  }
}

/** Applies the server's row images in the caller's transaction; an image that does not apply refuses the whole pull. */
function applyServerImages(db: CaseDb, images: readonly RowImage[], command: string): void {
  try {
    applyImages(db, images);
  } catch (err) {
    throw conflict(`team ${command}: the server's row images do not apply to this case file (${(err as Error).message}); nothing was written`);
  }
}

function insertReceipts(db: CaseDb, receipts: readonly ReceiptRow[]): void {
  const insert = db.prepare(
    `INSERT INTO audit_receipt (${RECEIPT_COLUMNS})
     VALUES (@seq, @at, @actor, @action, @targets, @body, @pre_state_fp, @post_state_fp, @artifact_digests, @prev_hash, @hash, @signer, @signature, @salt)`,
  );
  for (const r of receipts) insert.run(r);
}

/**
 * Verifies what was applied (see above), in the caller's transaction: what changed since `mark`
 * when there is one and it verifies, the whole file otherwise; throws (rolling back) when it does not verify.
 */
function verifyApplied(db: CaseDb, command: string, since: { mark: ResumePoint; changed: ChangedRows } | null): Applied {
  // Every run of one signer's receipts ends in a signature that commits to the whole run through
  // the hash chain (verifyOptions.ts), so checking run ends is as strict against a server that
  // altered or inserted receipts, and a pull of thousands costs a few signature checks.
  let reached: ResumePoint | null = null;
  const options = { signatures: 'run-ends' as const, reached: (p: ResumePoint) => (reached = p) };
  if (since && verifiesSince(db, { ...options, resume: since.mark, changed: since.changed })) {
    noteServerSeq(db, chainHead(db).seq);
    return { verified: 'changes', reached };
  }
  const verified = verifyChain(db, options);
  if (verified.firstBroken) {
    throw conflict(`team ${command}: what the server sent does not verify (seq ${verified.firstBroken.seq}: ${verified.firstBroken.reason}); nothing was written`);
  }
  noteServerSeq(db, chainHead(db).seq);
  return { verified: 'whole', reached };
}

/** Applies a pull's slice and verifies it, in the caller's transaction. */
function applySlice(db: CaseDb, slice: Slice, mark: ResumePoint | null): Applied {
  const tracker = mark ? trackChanges(db, slice.images) : null;
  tracker?.note();
  applyServerImages(db, slice.images, 'pull');
  tracker?.note();
  insertReceipts(db, slice.receipts);
  return verifyApplied(db, 'pull', mark && tracker ? { mark, changed: tracker.changed } : null);
}

/** A pull or clone's write failing at commit: the images' foreign keys are checked there (applyImages defers them), so a row the server sent that points at nothing is said as such. */
function refusedAtCommit(err: unknown, command: string): unknown {
  if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return conflict(`team ${command}: the server's row images refer to rows this case file does not hold (${(err as Error).message}); nothing was written`);
  }
  return err;
}

function commitPull<T>(db: CaseDb, write: () => T): T {
  try {
    return writeTransaction(db, write);
  } catch (err) {
    throw refusedAtCommit(err, 'pull');
  }
}

/**
 * A clone's one transaction, held across the server's reads: only on the clone's new file, which
 * no other code has open, so nothing else can write inside it.
 */
async function cloneTransaction<T>(db: CaseDb, write: () => Promise<T>): Promise<T> {
  db.exec('BEGIN IMMEDIATE');
  let result: T;
  try {
    result = await write();
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
  try {
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw refusedAtCommit(err, 'clone');
  }
  return result;
}

/** Keeps how far a committed pull or clone verified, so the next one starts there. */
function keepMark(marks: VerificationMarks | null | undefined, caseId: string, reached: ResumePoint | null): void {
  if (marks && reached) marks.record(caseId, reached, new Date().toISOString());
}

/**
 * Makes a new case file at `path` from the case on the server, verified before it is kept. The
 * server's row images and receipts are read and applied a part at a time, so a case of a million
 * receipts is never held in memory at once; the whole is one transaction, verified whole before
 * it commits, and the file is removed if anything fails.
 */
export async function cloneCase(client: ClientBase, caseId: string, path: string, options: PullOptions = {}): Promise<PullResult> {
  const point = await rowsPoint(client, caseId);
  if (point === 0) throw notFound(`team clone: no case ${caseId} on this server that you are a member of (or it was never pushed)`);
  const images = await serverImages(client, caseId, 0, point, 'clone');
  const db = createCaseFile(path);
  let applied: Applied;
  try {
    applied = await cloneTransaction(db, async () => {
      for await (const part of images) applyServerImages(db, part, 'clone');
      for await (const page of serverReceipts(client, caseId, 0, point, 'clone')) insertReceipts(db, page);
      const done = verifyApplied(db, 'clone', null);
      startCapture(db);
      return done;
    });
  } catch (err) {
    db.close();
    removeUnfinishedCase(path);
    throw err;
  }
  db.close();
  keepMark(options.marks, caseId, applied.reached);
  return { pulled: point, head: point, verified: applied.verified };
}

/**
 * Brings the case file up to what the server holds. Refused, with nothing written, when the case
 * file has receipts the server does not hold at their place in the chain.
 */
export async function pullCase(db: CaseDb, client: ClientBase, options: PullOptions = {}): Promise<PullResult> {
  const { caseId } = readCaseMeta(db);
  const local = chainHead(db);
  const head = await teamHead(client, caseId);
  if (!head) throw notFound(`team pull: case ${caseId} is not on this server, or you are not a member of it`);
  if (local.seq >= head.seq && holdsHead(db, head)) return { pulled: 0, head: local.seq, verified: 'nothing' };
  const [atLocal] = local.seq >= head.seq ? [] : await readReceipts(client, caseId, local.seq - 1, 1);
  if (!atLocal || atLocal.hash !== local.hash) {
    const known = serverSeq(db);
    throw new DivergedReplica(
      `team pull: this case file has ${local.seq - known} receipts (after seq ${known}) made on a head the server has moved past; pulling would reorder them; nothing was written (team sync takes them again on the server's head)`,
    );
  }
  const point = await rowsPoint(client, caseId);
  if (point <= local.seq) return { pulled: 0, head: local.seq, verified: 'nothing' };
  const slice = await serverSlice(client, caseId, local.seq, point, 'pull');
  const mark = options.marks?.usableMark(db, caseId) ?? null;
  const applied = commitPull(db, () => applySlice(db, slice, mark));
  keepMark(options.marks, caseId, applied.reached);
  return { pulled: slice.receipts.length, head: point, verified: applied.verified };
}
