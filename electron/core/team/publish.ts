import { randomUUID } from 'node:crypto';
import type { ClientBase } from 'pg';
import type { Classification } from '../../../shared/domain/enums';
import { RECEIPT_COLUMNS, type ReceiptRow } from '../audit/receipts';
import { parseOr } from '../audit/receiptViews';
import { verifyChain } from '../audit/verify';
import { conflict, notFound } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { classificationRank, receiptScopes } from './receiptScope';
import { listActors } from '../store/actorRows';
import { inReadSnapshot, openReader, writeTransaction, type CaseDb } from '../store/caseFile';
import { dirtyImages, everyImage, forgetDirty, forgetPending, ndjsonParts, noteServerSeq, startCapture } from '../store/replicaRows';
import { DEFAULT_TEAM_LEASE_MS, releaseConvergerLease, takeConvergerLease, convergerStanding, type ConvergerLease } from './convergerLease';
import { appendReceipts, appendRowsAtHead, HeadMoved, rowsPoint, createTeamCase, inTransaction, registerMembers, teamHead, type TeamContent, type TeamHead } from './teamStore';

export interface PushProgress {
  pushed: number;
  total: number;
  head: TeamHead;
}

export interface PushOptions {
  /** Receipts per transaction: each batch commits on its own, so a cut push resumes from the last. */
  batch?: number;
  onProgress?: (p: PushProgress) => void;
  /** About how many characters of row images the server keeps in one part (replicaRows.ts PART_CHARS). */
  partChars?: number;
  /**
   * The case's converger lease, held by the worker pushing its convergence receipts. Without it,
   * a push that carries convergence receipts (a desktop that converged offline) takes the lease for
   * the push, and is refused while another worker holds it.
   */
  lease?: ConvergerLease;
}

/**
 * Puts a case file on a team server: the case, its reviewers as members, then every receipt. The
 * file is verified first, whole: a server replicates a log to people who will build on it, so a
 * log that does not verify never leaves the machine.
 */
export async function publishCase(db: CaseDb, client: ClientBase, options: PushOptions = {}): Promise<PushProgress> {
  const meta = readCaseMeta(db);
  const verified = verifyChain(db);
  if (verified.firstBroken) {
    throw conflict(`team publish: the case does not verify (seq ${verified.firstBroken.seq}: ${verified.firstBroken.reason}); nothing was published`);
  }
  await inTransaction(client, async () => {
    await createTeamCase(client, meta.caseId, meta.name);
    await registerCaseMembers(db, client, meta.caseId);
  });
  return pushCase(db, client, options);
}

async function registerCaseMembers(db: CaseDb, client: ClientBase, caseId: string): Promise<void> {
  await registerMembers(
    client,
    caseId,
    listActors(db).map((a) => ({ actorId: a.actorId, role: a.role, tenants: a.tenants, maxRank: classificationRank(a.maxClassification) })),
  );
}

async function mayCreateRoles(client: ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ may: boolean }>('SELECT rolcreaterole OR rolsuper AS may FROM pg_roles WHERE rolname = current_user');
  return rows[0]?.may === true;
}

/** Whether this case file holds the server's head (the same receipt at its seq): it is not behind. */
export function holdsHead(db: CaseDb, head: TeamHead): boolean {
  if (head.seq === 0) return true;
  const local = db.prepare('SELECT hash FROM audit_receipt WHERE seq = ?').get(head.seq) as { hash: string } | undefined;
  return local?.hash === head.hash;
}

/**
 * Sends the receipts the server lacks, oldest first, a batch per transaction. The server's head
 * must be a receipt of this file (same seq, same hash): a server that moved on with receipts
 * this file has not seen is refused here, before anything is sent.
 */
export async function pushCase(db: CaseDb, client: ClientBase, options: PushOptions = {}): Promise<PushProgress> {
  const batch = options.batch ?? 1000;
  const { caseId } = readCaseMeta(db);
  const onServer = await teamHead(client, caseId);
  if (!onServer) throw notFound(`team push: case ${caseId} is not on this server; publish it first`);
  let head: TeamHead = onServer;
  if (!holdsHead(db, head)) {
    throw new HeadMoved(`team push: the server holds receipts up to seq ${head.seq} that this case file does not have; pull first`);
  }
  // New reviewers join the case on the server before their receipts arrive, when the pusher may
  // make roles (the server's admin); a reviewer pushing as themselves leaves that to the admin.
  if (await mayCreateRoles(client)) await inTransaction(client, () => registerCaseMembers(db, client, caseId));
  writeTransaction(db, () => startCapture(db));
  // One snapshot of the file for the whole push (a second connection, so the case can go on being
  // written meanwhile): its receipts, their texts, and the rows as they stand after the last of
  // them. What is written during the push goes with the next one.
  const snapshot = openReader(db.name);
  let lease: ConvergerLease | undefined;
  let pushed = 0;
  let total = 0;
  try {
    await inReadSnapshot(snapshot, async () => {
      total = (snapshot.prepare('SELECT count(*) AS n FROM audit_receipt WHERE seq > ?').get(head.seq) as { n: number }).n;
      const converges = snapshot.prepare(`SELECT 1 FROM audit_receipt WHERE seq > ? AND action = 'revocation:converge' LIMIT 1`).get(head.seq) !== undefined;
      lease = options.lease ?? (converges ? await leaseForPush(client, caseId) : undefined);
      const read = snapshot.prepare(`SELECT ${RECEIPT_COLUMNS} FROM audit_receipt WHERE seq > ? ORDER BY seq LIMIT ?`);
      // From its first push on, the case records which rows each write touches (replicaRows.ts); the
      // server gets every row once (a replica starts from them), then what each push changed. They
      // go with the last batch, part by part as they are read.
      const everything = (await rowsPoint(client, caseId)) === 0;
      const rowsOfPush = () => (everything ? { images: everyImage(snapshot), throughChange: lastChange(snapshot) } : dirtyImages(snapshot));
      if (total === 0) {
        if (everything) await appendRowsAtHead(client, caseId, head, { parts: ndjsonParts(rowsOfPush().images, options.partChars) });
        return;
      }
      // Each batch is read and scoped while the server appends the one before it: an append that is
      // one statement is on its way when appendReceipts returns, and reading needs no answer from it.
      const readBatch = (afterSeq: number) => {
        const rows = read.all(afterSeq, batch) as ReceiptRow[];
        return { rows, scopes: receiptScopes(snapshot, rows) };
      };
      let next = readBatch(head.seq);
      while (next.rows.length > 0) {
        const { rows, scopes } = next;
        const images = pushed + rows.length >= total ? rowsOfPush() : null;
        const content = await contentNamedBy(snapshot, client, caseId, rows);
        const appending = appendReceipts(client, caseId, head, rows.map((r, i) => ({ ...r, scope: scopes[i]! })), {
          content,
          ...(lease ? { lease } : {}),
          ...(images ? { rows: { parts: ndjsonParts(images.images, options.partChars) } } : {}),
        });
        // Awaited below, after the read; a failed append is thrown there.
        appending.catch(() => undefined);
        next = images ? { rows: [], scopes: [] } : readBatch(rows[rows.length - 1]!.seq);
        head = await appending;
        pushed += rows.length;
        options.onProgress?.({ pushed, total, head });
        if (images) {
          writeTransaction(db, () => {
            forgetDirty(db, images.throughChange);
            forgetPending(db, head.seq);
            noteServerSeq(db, head.seq);
          });
        }
      }
    });
  } finally {
    snapshot.close();
    if (lease && !options.lease) await releaseConvergerLease(client, lease);
  }
  return { pushed, total, head };
}

const lastChange = (db: CaseDb): number => (db.prepare('SELECT COALESCE(MAX(change_id), 0) AS n FROM replica_dirty').get() as { n: number }).n;

/** The converger lease a push of convergence receipts takes for itself; refused while another worker converges the case. */
async function leaseForPush(client: ClientBase, caseId: string): Promise<ConvergerLease> {
  const lease = await takeConvergerLease(client, caseId, `push:${randomUUID()}`, DEFAULT_TEAM_LEASE_MS);
  if (lease) return lease;
  const { holder, expiresAt } = await convergerStanding(client, caseId);
  throw conflict(`team push: this case file converged revocations offline, and ${holder ?? 'another worker'} converges case ${caseId} on the server${expiresAt ? ` (lease until ${expiresAt.toISOString()})` : ''}; nothing was pushed. Push again when it is done`);
}

const CONTENT_TABLES = [
  { prefix: 'revision:', sql: 'SELECT revision_id AS id, media_type, content, content_sha256, tenant, classification FROM evidence_revision WHERE revision_id = ?' },
  { prefix: 'source:', sql: 'SELECT source_id AS id, media_type, content, content_sha256, tenant, classification FROM source_document WHERE source_id = ?' },
] as const;

/**
 * The evidence and source texts a batch of receipts names that the server does not hold yet,
 * each with the first receipt of the batch that names it (a revision's ingest, a source's add).
 */
async function contentNamedBy(db: CaseDb, client: ClientBase, caseId: string, rows: readonly ReceiptRow[]): Promise<TeamContent[]> {
  const firstSeq = new Map<string, number>();
  for (const r of rows) {
    const targets = parseOr<unknown>(r.targets, null);
    if (!Array.isArray(targets)) continue;
    for (const t of targets) {
      if (typeof t === 'string' && CONTENT_TABLES.some((c) => t.startsWith(c.prefix)) && !firstSeq.has(t)) firstSeq.set(t, r.seq);
    }
  }
  if (firstSeq.size === 0) return [];
  const { rows: held } = await client.query<{ item: string }>('SELECT item FROM erwb.team_content WHERE case_id = $1 AND item = ANY ($2::text[])', [caseId, [...firstSeq.keys()]]);
  for (const h of held) firstSeq.delete(h.item);
  const out: TeamContent[] = [];
  const reads = CONTENT_TABLES.map((c) => ({ prefix: c.prefix, read: db.prepare(c.sql) }));
  for (const [item, seq] of firstSeq) {
    const table = reads.find((c) => item.startsWith(c.prefix))!;
    const row = table.read.get(item.slice(table.prefix.length)) as
      | { id: string; media_type: string; content: string; content_sha256: string; tenant: string; classification: Classification }
      | undefined;
    // A receipt can name an item this file does not hold only if the file was edited; publish verified it.
    if (!row) continue;
    out.push({ item, seq, mediaType: row.media_type, content: row.content, contentSha256: row.content_sha256, tenant: row.tenant, rank: classificationRank(row.classification) });
  }
  return out;
}
