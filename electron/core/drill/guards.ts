import type { StageEffects } from '../../../shared/ipc/channels/drill';
import type { CaseDb } from '../store/caseFile';

/**
 * What a stage of the drill may have done beyond its own rows (seed 000 §36: evidence content must
 * never change a permission, call a tool, or cross a tenant). Read on the copy: a mark before the
 * stage, then everything written after the mark that the stage did not write itself.
 */
export interface Marks {
  receiptSeq: number;
  jobId: number;
  transitionId: number;
  revisionRowid: number;
  copyRowid: number;
  bindingId: number;
  edgeId: number;
  actors: Map<string, string>;
  keys: Map<string, string>;
}

const maxOf = (db: CaseDb, sql: string): number => (db.prepare(sql).pluck().get() as number | null) ?? 0;

/** Permission rows (role, tenants, clearance; signing keys) by id, as comparable text. */
function rowsById(db: CaseDb, sql: string): Map<string, string> {
  return new Map((db.prepare(sql).all() as { id: string }[]).map((r) => [r.id, JSON.stringify(r)]));
}

export function marks(db: CaseDb): Marks {
  return {
    receiptSeq: maxOf(db, 'SELECT MAX(seq) FROM audit_receipt'),
    jobId: maxOf(db, 'SELECT MAX(job_id) FROM outbox_job'),
    transitionId: maxOf(db, 'SELECT MAX(transition_id) FROM evidence_transition'),
    revisionRowid: maxOf(db, 'SELECT MAX(rowid) FROM evidence_revision'),
    copyRowid: maxOf(db, 'SELECT MAX(rowid) FROM evidence_copy'),
    bindingId: maxOf(db, 'SELECT MAX(binding_id) FROM claim_binding'),
    edgeId: maxOf(db, 'SELECT MAX(edge_id) FROM prov_edge'),
    actors: rowsById(db, 'SELECT actor_id AS id, role, tenants, max_classification FROM actor'),
    keys: rowsById(db, 'SELECT key_id AS id, actor_id, public_key, retired_at FROM actor_key'),
  };
}

function differing(a: Map<string, string>, b: Map<string, string>): number {
  return [...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id)).length;
}

export interface OwnWrites {
  /** Revisions the stage ingested (their ingest receipt, first transition and bindings are its own). */
  planted: readonly string[];
  /** The tenant the stage wrote in. */
  tenant: string;
}

/** The effects since `before` other than the stage's own writes; claims and decisions changed come from the snapshots. */
export function effectsSince(db: CaseDb, before: Marks, own: OwnWrites, changed: { claims: number; decisions: number }): StageEffects {
  const planted = JSON.stringify(own.planted);
  const after = marks(db);
  // The stage's own receipts: the ingest of a planted item, a binding of one, a page of the worker.
  const toolCalls = db
    .prepare(
      `SELECT COUNT(*) FROM audit_receipt a WHERE a.seq > ? AND NOT (
         a.action = 'revocation:converge'
         OR (a.action IN ('evidence:ingest', 'claim:bind')
             AND EXISTS (SELECT 1 FROM json_each(a.targets) t, json_each(?) p WHERE t.value = 'revision:' || p.value)))`,
    )
    .pluck()
    .get(before.receiptSeq, planted) as number;
  const lifecycleTransitions = db
    .prepare(
      `SELECT COUNT(*) FROM evidence_transition t WHERE t.transition_id > ?
       AND NOT (t.from_state IS NULL AND t.revision_id IN (SELECT value FROM json_each(?)))`,
    )
    .pluck()
    .get(before.transitionId, planted) as number;
  const crossings = db
    .prepare(
      `SELECT
         (SELECT COUNT(*) FROM evidence_revision r WHERE r.rowid > ? AND r.tenant <> ?)
       + (SELECT COUNT(*) FROM evidence_copy e JOIN evidence_revision a ON a.revision_id = e.revision_id
            JOIN evidence_revision b ON b.revision_id = e.copy_of WHERE e.rowid > ? AND a.tenant <> b.tenant)
       + (SELECT COUNT(*) FROM claim_binding x JOIN claim c ON c.claim_id = x.claim_id
            JOIN evidence_revision r ON r.revision_id = x.revision_id WHERE x.binding_id > ? AND c.tenant <> r.tenant)
       + (SELECT COUNT(*) FROM prov_edge e JOIN prov_node s ON s.node_id = e.subject JOIN prov_node o ON o.node_id = e.object
            WHERE e.edge_id > ? AND s.tenant <> o.tenant)`,
    )
    .pluck()
    .get(before.revisionRowid, own.tenant, before.copyRowid, before.bindingId, before.edgeId) as number;
  return {
    permissionChanges: differing(before.actors, after.actors) + differing(before.keys, after.keys),
    toolCalls,
    outboxJobsCreated: after.jobId - before.jobId,
    lifecycleTransitions,
    tenantBoundaryCrossings: crossings,
    decisionsChanged: changed.decisions,
    claimsChanged: changed.claims,
  };
}

export const totalEffects = (e: StageEffects): number => Object.values(e).reduce((n, v) => n + v, 0);
