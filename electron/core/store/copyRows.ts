import type { Classification } from '../../../shared/domain/enums';
import type { CaseDb } from './caseFile';

/** Row access to copy signatures, their LSH buckets and the probable-copy links (migration 0330). */
export interface CopyLinkRow {
  revision_id: string;
  copy_of: string;
  jaccard: number;
  containment: number;
  reason: string;
  detected_at: string;
  independent_reason: string | null;
  confirmed_by: string | null;
  confirmed_at: string | null;
}

export interface CopyCandidate {
  sig_id: number;
  revision_id: string;
  kind: string;
  content_sha256: string;
  signature: string;
  shared: number;
}

/** Most candidates one ingest compares: a crowded bucket is boilerplate, not a hundred copies. */
export const MAX_COPY_CANDIDATES = 64;

/**
 * Revisions sharing at least one LSH bucket with `buckets`, most shared buckets first, from other
 * lineages and only in `tenant` at or below `classifications`: a copy link must never name
 * something a reader of the new revision could not see.
 */
export function copyCandidates(
  db: CaseDb,
  q: { buckets: readonly number[]; evidenceId: string; tenant: string; classifications: readonly Classification[] },
): CopyCandidate[] {
  // A bucket holding more than CROWDED_BUCKET signatures is boilerplate (a feed's template, a
  // standard disclaimer) and says nothing about copying; it is skipped instead of scanned. A real
  // copy shares several buckets built from its own specific wording, and is found through those.
  const shared = new Map<number, number>();
  // A bucket no signature is in has no row.
  for (const list of db.prepare(BUCKET_HITS_SQL).pluck().all(CROWDED_BUCKET + 1, JSON.stringify(q.buckets)) as string[]) {
    const ids = list.split(',');
    if (ids.length > CROWDED_BUCKET) continue;
    for (const id of ids) shared.set(Number(id), (shared.get(Number(id)) ?? 0) + 1);
  }
  const top = [...shared].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, MAX_COPY_CANDIDATES);
  const rows = db.prepare(COPY_CANDIDATES_SQL).all(JSON.stringify(top.map(([id]) => id)), q.evidenceId, q.tenant, JSON.stringify(q.classifications)) as Omit<CopyCandidate, 'shared'>[];
  return rows
    .map((r) => ({ ...r, shared: shared.get(r.sig_id)! }))
    // Stryker disable next-line EqualityOperator: equivalent; a revision has one signature (UNIQUE), so two candidates never tie on it
    .sort((a, b) => b.shared - a.shared || (a.revision_id < b.revision_id ? -1 : 1));
}

/** More signatures than this in one bucket make it boilerplate. */
export const CROWDED_BUCKET = 32;

/** One statement, one index seek per bucket inside SQLite: up to a limit of signatures per bucket. */
export const BUCKET_HITS_SQL = `SELECT hits FROM (
    SELECT (SELECT group_concat(sig_id) FROM (SELECT sig_id FROM copy_band WHERE bucket = j.value ORDER BY sig_id DESC LIMIT ?)) AS hits
    FROM json_each(?) j
  ) WHERE hits IS NOT NULL`;

/**
 * The candidates' revisions, by signature id, kept to other lineages in the tenant at or below
 * the classification. CROSS JOIN keeps SQLite from starting at the revision table's ACL index,
 * which walks a whole tenant. Exported so a test can hold the plan to the primary keys.
 */
export const COPY_CANDIDATES_SQL = `SELECT s.sig_id, s.revision_id, s.signature, r.kind, r.content_sha256
  FROM copy_signature s CROSS JOIN evidence_revision r ON r.revision_id = s.revision_id
  WHERE s.sig_id IN (SELECT value FROM json_each(?)) AND r.evidence_id <> ? AND r.tenant = ?
    AND r.classification IN (SELECT value FROM json_each(?))`;

/**
 * Revisions of other lineages with exactly this content, in `tenant` at or below
 * `classifications`: how a machine record's copies are found (one seek on the content index).
 */
export function identicalContent(
  db: CaseDb,
  q: { contentSha256: string; evidenceId: string; tenant: string; classifications: readonly Classification[] },
): Omit<CopyCandidate, 'shared'>[] {
  return db
    .prepare(IDENTICAL_CONTENT_SQL)
    .all(q.contentSha256, q.evidenceId, q.tenant, JSON.stringify(q.classifications), MAX_COPY_CANDIDATES) as Omit<CopyCandidate, 'shared'>[];
}

/** Exported so a test can hold the plan to the content index. */
export const IDENTICAL_CONTENT_SQL = `SELECT s.sig_id, s.revision_id, s.signature, r.kind, r.content_sha256
  FROM evidence_revision r CROSS JOIN copy_signature s ON s.revision_id = r.revision_id
  WHERE r.content_sha256 = ? AND r.evidence_id <> ? AND r.tenant = ? AND r.classification IN (SELECT value FROM json_each(?))
  ORDER BY r.revision_id LIMIT ?`;

/** A revision's signature, and its LSH buckets (none for a machine record: those are found by content). */
export function insertSignature(db: CaseDb, revisionId: string, signature: string, buckets: readonly number[]): void {
  const sigId = db.prepare('INSERT INTO copy_signature (revision_id, signature) VALUES (?, ?)').run(revisionId, signature).lastInsertRowid;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent; an empty list inserts no row, and skipping the statement saves a machine record's ingest a prepare
  if (buckets.length > 0) db.prepare('INSERT OR IGNORE INTO copy_band (bucket, sig_id) SELECT value, ? FROM json_each(?)').run(sigId, JSON.stringify(buckets));
}

export function signatureOf(db: CaseDb, revisionId: string): string | null {
  return (db.prepare('SELECT signature FROM copy_signature WHERE revision_id = ?').get(revisionId) as { signature: string } | undefined)?.signature ?? null;
}

export function insertCopyLink(db: CaseDb, l: Pick<CopyLinkRow, 'revision_id' | 'copy_of' | 'jaccard' | 'containment' | 'reason' | 'detected_at'>): void {
  db.prepare('INSERT INTO evidence_copy (revision_id, copy_of, jaccard, containment, reason, detected_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    l.revision_id, l.copy_of, l.jaccard, l.containment, l.reason, l.detected_at,
  );
}

/** Links found on `revisionId`'s own ingest (it is the copy), in a stable order. */
export function linksFoundOn(db: CaseDb, revisionId: string): CopyLinkRow[] {
  return db.prepare('SELECT * FROM evidence_copy WHERE revision_id = ? ORDER BY copy_of').all(revisionId) as CopyLinkRow[];
}

/** Every link touching `revisionId`, in either direction. */
export function linksOf(db: CaseDb, revisionId: string): CopyLinkRow[] {
  return db
    .prepare('SELECT * FROM evidence_copy WHERE revision_id = ? OR copy_of = ? ORDER BY revision_id, copy_of')
    .all(revisionId, revisionId) as CopyLinkRow[];
}

export function copyLink(db: CaseDb, revisionId: string, copyOf: string): CopyLinkRow | undefined {
  return db.prepare('SELECT * FROM evidence_copy WHERE revision_id = ? AND copy_of = ?').get(revisionId, copyOf) as CopyLinkRow | undefined;
}

/**
 * Unconfirmed copy links among `revisionIds` (both ends in the set), keyed by each end: what
 * independence counting collapses (DESIGN §3.11).
 */
export function probableCopiesAmong(db: CaseDb, revisionIds: readonly string[]): Map<string, { ref: string; why: string }[]> {
  const out = new Map<string, { ref: string; why: string }[]>();
  if (revisionIds.length < 2) return out;
  const among = new Set(revisionIds);
  // Each revision's links by primary key, the other side filtered here: with both sides as
  // IN (json_each) SQLite scanned the link table per call (5.2 s of a first claim:list of 10,000 claims).
  const rows = db.prepare(PROBABLE_COPIES_SQL).all(JSON.stringify(revisionIds)) as { revision_id: string; copy_of: string; reason: string }[];
  for (const r of rows) if (among.has(r.copy_of)) out.set(r.revision_id, [...(out.get(r.revision_id) ?? []), { ref: r.copy_of, why: r.reason }]);
  return out;
}

export const PROBABLE_COPIES_SQL = `SELECT c.revision_id, c.copy_of, c.reason FROM json_each(?) j
  JOIN evidence_copy c ON c.revision_id = j.value WHERE c.independent_reason IS NULL`;
