import type { FencingState } from '../../../shared/domain/enums';
import type { RevocationStatus, RevocationView } from '../../../shared/ipc/channels/revocation';
import type { ServiceContext } from '../context';
import type { CaseDb } from '../store/caseFile';
import { aclFilter } from '../store/acl';
import type { FenceRow } from '../store/fenceRows';

/**
 * revocation:status (DESIGN §4 "revocation propagation delay"): each revoke or supersede the actor
 * may see, how many dependents it reached and converged, its open jobs, and the measured delays.
 * Revocations of revisions outside the clearance are left out entirely, counts included.
 */
interface RootRow extends FenceRow {
  title: string;
  dependents_total: number | null;
  first_taken_at_ms: number | null;
}

export interface FenceTreeProgress {
  total: number | null;
  converged: number;
  derivedFences: number;
  openJobs: number;
  jobsDone: number;
  lastDoneMs: number | null;
}

/** Progress of a root fence and every DERIVED fence under it. */
export function treeProgress(db: CaseDb, rootFenceId: number): FenceTreeProgress {
  const p = db
    .prepare(
      `SELECT SUM(p.dependents_total) AS total, SUM(p.dependents_total IS NULL) AS uncounted, SUM(p.dependents_converged) AS converged,
         COUNT(*) - 1 AS derived
       FROM revocation_fence f JOIN fence_progress p ON p.fence_id = f.fence_id
       WHERE f.fence_id = ? OR f.root_fence_id = ?`,
    )
    .get(rootFenceId, rootFenceId) as { total: number | null; uncounted: number; converged: number | null; derived: number };
  const j = db
    .prepare(
      `SELECT COALESCE(SUM(status = 'OPEN'), 0) AS open, COALESCE(SUM(status = 'DONE'), 0) AS done, MAX(done_at_ms) AS last
       FROM outbox_job WHERE root_fence_id = ?`,
    )
    .get(rootFenceId) as { open: number; done: number; last: number | null };
  return {
    total: p.uncounted > 0 ? null : (p.total ?? 0),
    converged: p.converged ?? 0,
    derivedFences: Math.max(0, p.derived),
    openJobs: j.open,
    jobsDone: j.done,
    lastDoneMs: j.last,
  };
}

function toView(db: CaseDb, r: RootRow): RevocationView {
  const t = treeProgress(db, r.fence_id);
  const converged = t.openJobs === 0 && t.lastDoneMs !== null;
  return {
    fenceId: r.fence_id,
    revisionId: r.revision_id,
    title: r.title,
    cause: r.cause as FencingState,
    fromState: r.from_state,
    reason: r.reason,
    actor: r.actor,
    supportingRef: r.supporting_ref,
    fencedAt: r.fenced_at,
    dependentsTotal: t.total,
    dependentsConverged: t.converged,
    derivedFences: t.derivedFences,
    openJobs: t.openJobs,
    jobsDone: t.jobsDone,
    pickupDelayMs: r.first_taken_at_ms === null ? null : Math.max(0, r.first_taken_at_ms - r.fenced_at_ms),
    convergenceMs: converged ? Math.max(0, t.lastDoneMs! - r.fenced_at_ms) : null,
    convergedAt: converged ? new Date(t.lastDoneMs!).toISOString() : null,
  };
}

export function revocationStatus(ctx: ServiceContext, limit: number, worker: RevocationStatus['worker'], nowMs: number): RevocationStatus {
  const { db } = ctx;
  // The fences, jobs and remediations lead, and each one's revision or claim is checked against
  // the clearance; led by the clearance index instead, SQLite walked all 50,000 revisions of a
  // large case to find a handful of fences (150 ms a read).
  const ev = aclFilter(ctx.actor, 'r', { useIndex: false });
  const cl = aclFilter(ctx.actor, 'c', { useIndex: false });
  const roots = db
    .prepare(
      `SELECT f.*, l.title, p.dependents_total, p.first_taken_at_ms FROM revocation_fence f
       JOIN evidence_revision r ON r.revision_id = f.revision_id JOIN evidence_lineage l ON l.evidence_id = r.evidence_id
       JOIN fence_progress p ON p.fence_id = f.fence_id
       WHERE f.cause <> 'DERIVED' AND ${ev.sql} ORDER BY f.fence_id DESC LIMIT ?`,
    )
    .all(...ev.params, limit) as RootRow[];
  const jobs = db
    .prepare(
      `SELECT COUNT(*) AS open, COALESCE(SUM(j.lease_expires_at > ?), 0) AS leased FROM outbox_job j
       JOIN revocation_fence f ON f.fence_id = j.root_fence_id JOIN evidence_revision r ON r.revision_id = f.revision_id
       WHERE j.status = 'OPEN' AND ${ev.sql}`,
    )
    .get(nowMs, ...ev.params) as { open: number; leased: number };
  // Pending claims can only rest on fences whose jobs are still open: a finished fence has
  // recomputed every claim it reached, past its watermark.
  const pending = db
    .prepare(
      `SELECT COUNT(DISTINCT b.claim_id) AS n FROM revocation_fence f
       JOIN claim_binding b ON b.revision_id = f.revision_id AND b.binding_id <= f.binding_watermark
       JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
       LEFT JOIN support_projection sp ON sp.claim_id = b.claim_id
       WHERE f.fence_id IN (SELECT fence_id FROM outbox_job WHERE status = 'OPEN')
         AND f.fence_id > COALESCE(sp.fence_watermark, 0) AND ${cl.sql}`,
    )
    .get(...cl.params) as { n: number };
  const remediations = db
    .prepare(`SELECT COUNT(*) AS n FROM remediation m JOIN claim c ON c.claim_id = m.claim_id WHERE m.status = 'OPEN' AND ${cl.sql}`)
    .get(...cl.params) as { n: number };
  return {
    openJobs: jobs.open,
    leasedJobs: jobs.leased,
    pendingClaims: pending.n,
    openRemediations: remediations.n,
    worker,
    revocations: roots.map((r) => toView(db, r)),
  };
}

/** The jobs among `jobIds` whose revocation concerns a revision the actor may see. */
export function visibleJobs(ctx: ServiceContext, jobIds: readonly number[]): Set<number> {
  if (jobIds.length === 0) return new Set();
  const ev = aclFilter(ctx.actor, 'r');
  const rows = ctx.db
    .prepare(
      `SELECT j.job_id FROM outbox_job j JOIN revocation_fence f ON f.fence_id = j.root_fence_id
       JOIN evidence_revision r ON r.revision_id = f.revision_id
       WHERE j.job_id IN (SELECT value FROM json_each(?)) AND ${ev.sql}`,
    )
    .all(JSON.stringify(jobIds), ...ev.params) as { job_id: number }[];
  return new Set(rows.map((r) => r.job_id));
}
