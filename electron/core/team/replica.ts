import type { ClientBase } from 'pg';
import { RECEIPT_COLUMNS, type ReceiptRow } from '../audit/receipts';
import { chainHead } from '../audit/receiptViews';
import { trackChanges } from '../audit/rowTargets';
import { verifyChain, type ResumePoint, type VerifyOptions } from '../audit/verify';
import type { VerificationMarks } from '../audit/verifyMarks';
import { conflict, forbidden, invalid, notFound, WorkbenchError } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { createCaseFile, removeUnfinishedCase, writeTransaction, type CaseDb } from '../store/caseFile';
import { applyImages, noteServerSeq, serverSeq, startCapture, type RowImage } from '../store/replicaRows';
import { holdsHead } from './publish';
import { readReceipts, readRows, rowsPoint, teamHead } from './teamStore';

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

/** The receipts (afterSeq, throughSeq] and their row images, all of which the connected role must be able to read. */
async function serverSlice(client: ClientBase, caseId: string, afterSeq: number, throughSeq: number, command: string): Promise<Slice> {
  const receipts: ReceiptRow[] = [];
  for (let from = afterSeq; from < throughSeq; ) {
    const page = await readReceipts(client, caseId, from, Math.min(PAGE, throughSeq - from));
    if (page.length === 0) break;
    for (const r of page) {
      if (!r.readable) {
        throw forbidden(`team ${command}: receipt seq ${r.seq} (${r.action}) concerns material outside your clearance; a replica holds the whole case, so it needs a reviewer cleared for all of it`);
      }
      const { content_digest: _digest, readable: _readable, ...row } = r;
      receipts.push(row);
    }
    from = page[page.length - 1]!.seq;
  }
  if (receipts.length !== throughSeq - afterSeq) throw conflict(`team ${command}: the server sent ${receipts.length} receipts for seq ${afterSeq + 1}..${throughSeq}; nothing was written`);
  const rows = await readRows(client, caseId, afterSeq, throughSeq);
  if (rows.unreadable > 0) {
    throw forbidden(`team ${command}: ${rows.unreadable} pushes' rows concern material outside your clearance; a replica holds the whole case, so it needs a reviewer cleared for all of it`);
  }
  const images: RowImage[] = [];
  for (const [i, text] of rows.images.entries()) {
    for (const [n, line] of text.split('\n').entries()) {
      if (line === '') continue;
      try {
        images.push(JSON.parse(line) as RowImage);
      } catch {
        throw invalid(`team ${command}: row image ${n + 1} of push ${i + 1} from the server is not JSON; nothing was written`);
      }
    }
  }
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

/** Applies a slice and verifies it (see above), in the caller's transaction; throws (rolling back) when it does not verify. */
function applySlice(db: CaseDb, slice: Slice, command: string, mark: ResumePoint | null): Applied {
  const tracker = mark ? trackChanges(db, slice.images) : null;
  tracker?.note();
  try {
    applyImages(db, slice.images);
  } catch (err) {
    throw conflict(`team ${command}: the server's row images do not apply to this case file (${(err as Error).message}); nothing was written`);
  }
  tracker?.note();
  const insert = db.prepare(
    `INSERT INTO audit_receipt (${RECEIPT_COLUMNS})
     VALUES (@seq, @at, @actor, @action, @targets, @body, @pre_state_fp, @post_state_fp, @artifact_digests, @prev_hash, @hash, @signer, @signature, @salt)`,
  );
  for (const r of slice.receipts) insert.run(r);
  // Every run of one signer's receipts ends in a signature that commits to the whole run through
  // the hash chain (verifyOptions.ts), so checking run ends is as strict against a server that
  // altered or inserted receipts, and a pull of thousands costs a few signature checks.
  let reached: ResumePoint | null = null;
  const options = { signatures: 'run-ends' as const, reached: (p: ResumePoint) => (reached = p) };
  if (mark && tracker && verifiesSince(db, { ...options, resume: mark, changed: tracker.changed })) {
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

/**
 * Commits a pull or clone's write. The images' foreign keys are checked at commit (applyImages
 * defers them), so a row the server sent that points at nothing fails there: said as such.
 */
function commitSlice<T>(db: CaseDb, command: string, write: () => T): T {
  try {
    return writeTransaction(db, write);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw conflict(`team ${command}: the server's row images refer to rows this case file does not hold (${(err as Error).message}); nothing was written`);
    }
    throw err;
  }
}

/** Keeps how far a committed pull or clone verified, so the next one starts there. */
function keepMark(marks: VerificationMarks | null | undefined, caseId: string, reached: ResumePoint | null): void {
  if (marks && reached) marks.record(caseId, reached, new Date().toISOString());
}

/** Makes a new case file at `path` from the case on the server, verified before it is kept. */
export async function cloneCase(client: ClientBase, caseId: string, path: string, options: PullOptions = {}): Promise<PullResult> {
  const point = await rowsPoint(client, caseId);
  if (point === 0) throw notFound(`team clone: no case ${caseId} on this server that you are a member of (or it was never pushed)`);
  const slice = await serverSlice(client, caseId, 0, point, 'clone');
  const db = createCaseFile(path);
  let applied: Applied;
  try {
    applied = commitSlice(db, 'clone', () => {
      const done = applySlice(db, slice, 'clone', null);
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
  return { pulled: slice.receipts.length, head: point, verified: applied.verified };
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
  const applied = commitSlice(db, 'pull', () => applySlice(db, slice, 'pull', mark));
  keepMark(options.marks, caseId, applied.reached);
  return { pulled: slice.receipts.length, head: point, verified: applied.verified };
}
