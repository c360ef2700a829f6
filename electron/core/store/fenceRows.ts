import type { FenceCause, LifecycleState } from '../../../shared/domain/enums';
import type { ServiceContext } from '../context';
import type { CaseDb } from './caseFile';

export type { FenceCause };

/**
 * Fence rows and the queries over them (DESIGN §3.5): the repository that services/fence.ts writes
 * through and every read path (projections, gate, remediation, worker) reads through.
 */

export interface FenceRow {
  fence_id: number;
  revision_id: string;
  cause: FenceCause;
  from_state: LifecycleState | null;
  root_fence_id: number | null;
  parent_fence_id: number | null;
  reason: string;
  supporting_ref: string | null;
  actor: string;
  fenced_at: string;
  fenced_at_ms: number;
  binding_watermark: number;
}

/** Milliseconds for leases and delays; the case's ISO clock when it parses, so tests can fix time. */
export const epochMs = (ctx: Pick<ServiceContext, 'now'>): number => {
  const t = Date.parse(ctx.now());
  return Number.isNaN(t) ? Date.now() : t;
};

export interface NewFence {
  revisionId: string;
  cause: FenceCause;
  fromState: LifecycleState | null;
  rootFenceId: number | null;
  parentFenceId: number | null;
  reason: string;
  supportingRef: string | null;
  /** Who the fence is attributed to; a DERIVED fence keeps the revoker of its root. */
  actor?: string;
}

/** What writeFence wrote: the move's receipt records it, and verification holds the fence to it. */
export interface WrittenFence {
  fenceId: number;
  jobId: number;
  /** The highest binding id at fence time: bindings made later were made knowingly. */
  bindingWatermark: number;
}

/** Writes a fence, its first outbox job and its progress row. Runs inside the caller's transaction. */
export function writeFence(ctx: ServiceContext, f: NewFence): WrittenFence {
  const db = ctx.db;
  if (!db.inTransaction) throw new Error(`writeFence(${f.revisionId}) must run inside the change's transaction`);
  const at = ctx.now();
  const ms = epochMs(ctx);
  // MAX over the rowid is one index seek: it does not grow with the number of bindings.
  const watermark = (db.prepare('SELECT COALESCE(MAX(binding_id), 0) AS m FROM claim_binding').get() as { m: number }).m;
  const fenceId = Number(
    db
      .prepare(
        `INSERT INTO revocation_fence (revision_id, cause, from_state, root_fence_id, parent_fence_id, reason, supporting_ref,
           actor, fenced_at, fenced_at_ms, binding_watermark)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(f.revisionId, f.cause, f.fromState, f.rootFenceId, f.parentFenceId, f.reason, f.supportingRef, f.actor ?? ctx.actor.actorId, at, ms, watermark)
      .lastInsertRowid,
  );
  db.prepare('INSERT INTO fence_progress (fence_id) VALUES (?)').run(fenceId);
  const jobId = Number(
    db
      .prepare(`INSERT INTO outbox_job (fence_id, root_fence_id, phase, created_at_ms) VALUES (?, ?, 'claims', ?)`)
      .run(fenceId, f.rootFenceId ?? fenceId, ms).lastInsertRowid,
  );
  return { fenceId, jobId, bindingWatermark: watermark };
}


export function fenceById(db: CaseDb, fenceId: number): FenceRow | undefined {
  return db.prepare('SELECT * FROM revocation_fence WHERE fence_id = ?').get(fenceId) as FenceRow | undefined;
}

export const maxFenceId = (db: CaseDb): number =>
  (db.prepare('SELECT COALESCE(MAX(fence_id), 0) AS m FROM revocation_fence').get() as { m: number }).m;

/** Fences written directly on any of `revisionIds`. */
export function fencesOn(db: CaseDb, revisionIds: readonly string[]): FenceRow[] {
  if (revisionIds.length === 0) return [];
  return db
    .prepare('SELECT f.* FROM revocation_fence f WHERE f.revision_id IN (SELECT value FROM json_each(?)) ORDER BY f.fence_id')
    .all(JSON.stringify(revisionIds)) as FenceRow[];
}

const hasProvenance = new WeakMap<CaseDb, boolean>();
function provenanceTables(db: CaseDb): boolean {
  let known = hasProvenance.get(db);
  if (known === undefined) {
    known = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'prov_edge'").get();
    hasProvenance.set(db, known);
  }
  return known;
}

/**
 * SQL condition on a fence row \`f\`: the fence still holds. A fence lifts when the revision it was
 * written for (a DERIVED fence: its root's revision) is VALIDATED again, as a dispute settled in
 * its favour or a released and re-validated quarantine are; a revoke or supersede never lifts,
 * since neither state leads back to VALIDATED.
 */
export const FENCE_IN_FORCE = `(SELECT fr.state FROM evidence_revision fr
  WHERE fr.revision_id = COALESCE((SELECT root.revision_id FROM revocation_fence root WHERE root.fence_id = f.root_fence_id), f.revision_id)) <> 'VALIDATED'`;

/**
 * The PROV ancestors (wasDerivedFrom, transitively) of each revision in the JSON array bound to
 * the first parameter, as rows of `up` (the revision: `bound`) joined to `a` (an ancestor's node)
 * and `ar` (its revision). Ancestors in the revision's own lineage are skipped, because a
 * correction is not a derivation. UNION (not UNION ALL) makes the walk terminate even on a cyclic
 * graph. Staleness (ancestorFences) and the what-if (ancestorRevisions) walk the same way.
 * CROSS JOIN keeps SQLite's join order: the walk leads, as it is a handful of rows per revision
 * (none without PROV). Left to the planner, ancestorFences led with every fence of the case and
 * its two subqueries: 0.15 ms per call with 200 fences, growing with every revocation, paid once
 * per claim whose status is derived (0.013 ms per call led by the walk).
 */
const ANCESTORS_OF_OTHER_LINEAGES = `WITH RECURSIVE up(bound, node) AS (
         SELECT n.revision_id, n.node_id FROM prov_node n WHERE n.revision_id IN (SELECT value FROM json_each(?))
         UNION
         SELECT up.bound, e.object FROM up JOIN prov_edge e ON e.subject = up.node AND e.type = 'wasDerivedFrom'
       )`;
const OTHER_LINEAGE_ANCESTOR = `CROSS JOIN prov_node a ON a.node_id = up.node AND a.revision_id IS NOT NULL AND a.revision_id <> up.bound
       CROSS JOIN evidence_revision ar ON ar.revision_id = a.revision_id
       CROSS JOIN evidence_revision br ON br.revision_id = up.bound AND ar.evidence_id <> br.evidence_id`;

/** ancestorFences's query (a JSON array of revision ids); exported so a test can hold its plan to the walk. */
export const ANCESTOR_FENCES_SQL = `${ANCESTORS_OF_OTHER_LINEAGES}
       SELECT DISTINCT up.bound AS bound, f.*
       FROM up ${OTHER_LINEAGE_ANCESTOR}
       CROSS JOIN revocation_fence f ON f.revision_id = a.revision_id
       WHERE ${FENCE_IN_FORCE}
       ORDER BY f.fence_id`;

/**
 * Fences on the PROV ancestors of each revision, keyed by the revision. A revision with an entry
 * here is stale: something it was derived from was taken out of normal flows (revoked,
 * superseded, quarantined, disputed) and is not VALIDATED again.
 */
export function ancestorFences(db: CaseDb, revisionIds: readonly string[]): Map<string, FenceRow[]> {
  const out = new Map<string, FenceRow[]>();
  if (revisionIds.length === 0 || !provenanceTables(db)) return out;
  const rows = db.prepare(ANCESTOR_FENCES_SQL).all(JSON.stringify(revisionIds)) as (FenceRow & { bound: string })[];
  for (const { bound, ...fence } of rows) out.set(bound, [...(out.get(bound) ?? []), fence]);
  return out;
}

/**
 * The PROV ancestor revisions of each revision (other lineages), keyed by the revision: the ones
 * whose fence would make it stale. Revisions without ancestors have no entry.
 */
export function ancestorRevisions(db: CaseDb, revisionIds: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!provenanceTables(db)) return out;
  // Stryker disable next-line ConditionalExpression: equivalent; an empty list finds no row, the check only spares the query
  if (revisionIds.length === 0) return out;
  const rows = db
    .prepare(`${ANCESTORS_OF_OTHER_LINEAGES} SELECT DISTINCT up.bound AS bound, a.revision_id AS ancestor FROM up ${OTHER_LINEAGE_ANCESTOR} ORDER BY 1, 2`)
    .all(JSON.stringify(revisionIds)) as { bound: string; ancestor: string }[];
  for (const r of rows) out.set(r.bound, [...(out.get(r.bound) ?? []), r.ancestor]);
  return out;
}

/**
 * Revisions that have one of `revisionIds` among their ancestorRevisions: the walk of
 * ancestorRevisions turned around (down the wasDerivedFrom edges), with the same lineage rule.
 */
export function descendantRevisions(db: CaseDb, revisionIds: readonly string[]): string[] {
  if (!provenanceTables(db)) return [];
  // Stryker disable next-line ConditionalExpression: equivalent; an empty list finds no row, the check only spares the query
  if (revisionIds.length === 0) return [];
  return db
    .prepare(
      `WITH RECURSIVE down(root, node) AS (
         SELECT n.revision_id, n.node_id FROM prov_node n WHERE n.revision_id IN (SELECT value FROM json_each(?))
         UNION
         SELECT down.root, e.subject FROM down JOIN prov_edge e ON e.object = down.node AND e.type = 'wasDerivedFrom'
       )
       SELECT DISTINCT d.revision_id FROM down
       JOIN prov_node d ON d.node_id = down.node AND d.revision_id IS NOT NULL AND d.revision_id <> down.root
       JOIN evidence_revision dr ON dr.revision_id = d.revision_id
       JOIN evidence_revision rr ON rr.revision_id = down.root AND dr.evidence_id <> rr.evidence_id
       ORDER BY 1`,
    )
    .pluck()
    .all(JSON.stringify(revisionIds)) as string[];
}

/** Revisions derived (wasDerivedFrom, through non-revision entities) from `revisionId`, after `cursor`. */
export function derivedRevisions(db: CaseDb, revisionId: string, cursor: string | null, limit: number): string[] {
  if (!provenanceTables(db)) return [];
  const rows = db
    .prepare(
      `WITH RECURSIVE down(node, is_root) AS (
         SELECT n.node_id, 1 FROM prov_node n WHERE n.revision_id = ?
         UNION
         SELECT e.subject, 0 FROM down d
         JOIN prov_edge e ON e.object = d.node AND e.type = 'wasDerivedFrom'
         JOIN prov_node via ON via.node_id = d.node
         WHERE d.is_root = 1 OR via.revision_id IS NULL
       )
       SELECT DISTINCT dn.revision_id FROM down d
       JOIN prov_node dn ON dn.node_id = d.node AND dn.revision_id IS NOT NULL
       JOIN evidence_revision dr ON dr.revision_id = dn.revision_id
       JOIN evidence_revision sr ON sr.revision_id = ?
       WHERE d.is_root = 0 AND dr.evidence_id <> sr.evidence_id AND dn.revision_id > ?
       ORDER BY dn.revision_id LIMIT ?`,
    )
    .all(revisionId, revisionId, cursor ?? '', limit) as { revision_id: string }[];
  return rows.map((r) => r.revision_id);
}
