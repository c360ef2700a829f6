import { canonicalJson } from '../../../shared/domain/canonical';
import { appendReceipt, signingKeyFor } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { epochMs, derivedRevisions, fenceById, maxFenceId, writeFence, type FenceRow } from '../store/fenceRows';
import { liveProjection, loadProjectionStates, projectionBefore } from '../services/projection';
import { affectedBindings, insertRemediation, openedRemediations, openRemediationClaims, opensRemediation } from '../services/remediationRows';
import { effectiveDecisions } from '../store/reviewRows';
import { writeTransaction, type CaseDb } from '../store/caseFile';

/**
 * The asynchronous half of revocation (DESIGN §3.5): take an outbox job with a lease, recompute
 * the support projection of one page of the fenced revision's dependents with compare-and-swap on
 * each projection's version, and write a continuation job for the rest.
 *
 * Each page is one IMMEDIATE transaction that also re-checks the lease, writes the applied-jobs
 * ledger (unique per fence and claim), marks the job DONE and appends the page's receipt. A worker
 * killed at any point leaves either the whole page or nothing; a job whose worker died keeps its
 * lease until it expires and is then taken again, so no job is lost and none is applied twice.
 */
export interface JobRow {
  job_id: number;
  fence_id: number;
  root_fence_id: number;
  phase: 'claims' | 'derived';
  cursor: string | null;
  status: 'OPEN' | 'DONE';
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at_ms: number;
  done_at_ms: number | null;
  converged: number;
  receipt_seq: number | null;
}

export interface WorkerOptions {
  /** Lease owner name; unique per worker (process id and a random part). */
  owner: string;
  leaseMs?: number;
  /** Dependents recomputed per job; the rest go to continuation jobs. */
  fanOut?: number;
  /** Lease clock in ms; wall time by default (leases must expire in real time after a crash). */
  clock?: () => number;
}

export interface JobOutcome {
  jobId: number;
  fenceId: number;
  phase: JobRow['phase'];
  converged: number;
  derivedFences: number;
  remediationsOpened: number[];
  nextJobId: number | null;
  /** The lease was taken over before this worker could commit: nothing was written. */
  lost: boolean;
}

export const DEFAULT_FAN_OUT = 500;
export const DEFAULT_LEASE_MS = 30_000;

/**
 * Takes the oldest open job whose lease is free or expired, in one atomic UPDATE … RETURNING.
 * A lease is the worker's bookkeeping, not a fact about the case, so it has no receipt; the page
 * it leads to has one.
 */
export function claimNextJob(db: CaseDb, opts: WorkerOptions): JobRow | null {
  const now = (opts.clock ?? Date.now)();
  const row = db
    .prepare(
      `UPDATE outbox_job SET lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1
       WHERE job_id = (SELECT job_id FROM outbox_job WHERE status = 'OPEN' AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
                       ORDER BY job_id LIMIT 1)
       RETURNING *`,
    )
    .get(opts.owner, now + (opts.leaseMs ?? DEFAULT_LEASE_MS), now) as JobRow | undefined;
  return row ?? null;
}

const dependentsSql = `FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
  WHERE b.revision_id = ? AND b.binding_id <= ?`;

function claimsPage(ctx: ServiceContext, job: JobRow, fence: FenceRow, fanOut: number) {
  const { db } = ctx;
  if (job.cursor === null) {
    const total = (db.prepare(`SELECT COUNT(*) AS n ${dependentsSql}`).get(fence.revision_id, fence.binding_watermark) as { n: number }).n;
    db.prepare('UPDATE fence_progress SET dependents_total = ?, first_taken_at_ms = COALESCE(first_taken_at_ms, ?) WHERE fence_id = ?').run(total, epochMs(ctx), fence.fence_id);
  }
  const ids = (
    db
      .prepare(`SELECT b.claim_id ${dependentsSql} AND b.claim_id > ? ORDER BY b.claim_id LIMIT ?`)
      .all(fence.revision_id, fence.binding_watermark, job.cursor ?? '', fanOut + 1) as { claim_id: string }[]
  ).map((r) => r.claim_id);
  const more = ids.length > fanOut;
  const page = ids.slice(0, fanOut);
  const states = loadProjectionStates(db, page);
  const decisions = effectiveDecisions(db, page);
  const alreadyOpen = openRemediationClaims(db, page);
  // Every fence that exists now is reflected in what is read below, so the recomputed projection
  // accounts for all of them and clears the pending mark of each.
  const watermark = maxFenceId(db);
  const now = ctx.now();
  const update = db.prepare(
    `UPDATE support_projection SET generation = ?, projection = ?, reasons = ?, version = ?, fence_watermark = ?, computed_at = ?, job_id = ?
     WHERE claim_id = ? AND version = ?`,
  );
  const insert = db.prepare(
    `INSERT INTO support_projection (claim_id, generation, projection, reasons, version, fence_watermark, computed_at, job_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ledger = db.prepare(
    `INSERT INTO projection_ledger (fence_id, claim_id, job_id, generation, from_projection, to_projection, from_version, to_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const opened: number[] = [];
  // What each projection was written as, for the receipt: verify holds the stored row to it.
  const projections: ProjectionRecord[] = [];
  for (const claimId of page) {
    const s = states.get(claimId)!;
    const live = liveProjection(s, now);
    const fromVersion = s.stored?.version ?? 0;
    const toVersion = fromVersion + 1;
    const reasons = JSON.stringify(live.reasons);
    if (s.stored) {
      const changed = update.run(s.generation, live.projection, reasons, toVersion, watermark, now, job.job_id, claimId, fromVersion).changes;
      if (changed !== 1) throw new Error(`revocation worker: projection of ${claimId} moved past version ${fromVersion} during job ${job.job_id}`);
    } else {
      insert.run(claimId, s.generation, live.projection, reasons, toVersion, watermark, now, job.job_id);
    }
    ledger.run(fence.fence_id, claimId, job.job_id, s.generation, s.stored?.projection ?? null, live.projection, fromVersion, toVersion);
    projections.push([claimId, toVersion, sha256Hex(reasons), watermark]);
    const change = { before: projectionBefore(s, now), after: live.projection, decision: decisions.get(claimId), generation: s.generation, alreadyOpen: alreadyOpen.has(claimId) };
    if (opensRemediation(change)) {
      const { decision } = change;
      const affected = affectedBindings(s).map(({ binding: _b, fence: _f, ...a }) => a);
      opened.push(
        insertRemediation(db, { claimId, generation: s.generation, decision, fenceId: fence.fence_id, jobId: job.job_id, projection: live.projection, projectionVersion: toVersion, affected, at: now }),
      );
    }
  }
  db.prepare('UPDATE fence_progress SET dependents_converged = dependents_converged + ? WHERE fence_id = ?').run(page.length, fence.fence_id);
  // A claim re-bound to a new generation between pages is no longer a dependent: the total is
  // settled to what was actually reached, so progress ends at converged = total.
  if (!more) db.prepare('UPDATE fence_progress SET dependents_total = dependents_converged WHERE fence_id = ?').run(fence.fence_id);
  let next: { phase: JobRow['phase']; cursor: string | null } | null = null;
  if (more) next = { phase: 'claims', cursor: page[page.length - 1]! };
  else if (derivedRevisions(db, fence.revision_id, null, 1).length > 0) next = { phase: 'derived', cursor: null };
  return { converged: page.length, derivedFences: 0, opened, next, projections, derivedFenceIds: [] as number[] };
}

function derivedPage(ctx: ServiceContext, job: JobRow, fence: FenceRow, fanOut: number) {
  const { db } = ctx;
  const revs = derivedRevisions(db, fence.revision_id, job.cursor, fanOut + 1);
  const more = revs.length > fanOut;
  const root = fence.root_fence_id ?? fence.fence_id;
  const seen = db.prepare('SELECT 1 FROM revocation_fence WHERE (fence_id = ? OR root_fence_id = ?) AND revision_id = ?');
  const derivedFenceIds: number[] = [];
  for (const revisionId of revs.slice(0, fanOut)) {
    // One fence per revision per revoke, however many paths lead to it (and cycles end here).
    if (seen.get(root, root, revisionId)) continue;
    const written = writeFence(ctx, {
      revisionId,
      cause: 'DERIVED',
      fromState: null,
      rootFenceId: root,
      parentFenceId: fence.fence_id,
      reason: `derived from ${fence.revision_id}, which was ${fence.cause === 'DERIVED' ? 'itself derived from fenced evidence' : fence.cause}`,
      supportingRef: fence.revision_id,
      actor: fence.actor,
    });
    derivedFenceIds.push(written.fenceId);
  }
  db.prepare('UPDATE fence_progress SET derived_fences = derived_fences + ? WHERE fence_id = ?').run(derivedFenceIds.length, fence.fence_id);
  const next = more ? { phase: 'derived' as const, cursor: revs[fanOut - 1]! } : null;
  return { converged: 0, derivedFences: derivedFenceIds.length, opened: [] as number[], next, projections: [] as ProjectionRecord[], derivedFenceIds };
}

/** A projection a job wrote: [claimId, version, SHA-256 of its reasons, fence watermark]. */
export type ProjectionRecord = [claimId: string, version: number, reasonsSha256: string, fenceWatermark: number];

/** The derived fences a job wrote, as verify recomputes them (everything but the metrics' timing). */
export function derivedFencesDigest(db: CaseDb, fenceIds: readonly number[]): string {
  const row = db.prepare(
    `SELECT fence_id, revision_id, cause, from_state, root_fence_id, parent_fence_id, reason, supporting_ref, actor, fenced_at, binding_watermark
     FROM revocation_fence WHERE fence_id = ?`,
  );
  return sha256Hex(canonicalJson(fenceIds.map((id) => row.get(id) ?? null)));
}

/** Processes one job this worker holds the lease on; answers `lost` (writing nothing) if it no longer does. */
export function processJob(ctx: ServiceContext, job: JobRow, opts: WorkerOptions): JobOutcome {
  const { db } = ctx;
  const fanOut = opts.fanOut ?? DEFAULT_FAN_OUT;
  return writeTransaction(db, (): JobOutcome => {
    const mine = db.prepare(`SELECT * FROM outbox_job WHERE job_id = ? AND status = 'OPEN' AND lease_owner = ?`).get(job.job_id, opts.owner) as JobRow | undefined;
    const base = { jobId: job.job_id, fenceId: job.fence_id, phase: job.phase };
    if (!mine) return { ...base, converged: 0, derivedFences: 0, remediationsOpened: [], nextJobId: null, lost: true };
    const fence = fenceById(db, mine.fence_id);
    // Stryker disable next-line StringLiteral: unreachable; outbox_job.fence_id references revocation_fence with foreign keys on
    if (!fence) throw new Error(`revocation worker: job ${mine.job_id} names fence ${mine.fence_id}, which does not exist`);
    const page = mine.phase === 'claims' ? claimsPage(ctx, mine, fence, fanOut) : derivedPage(ctx, mine, fence, fanOut);
    const nowMs = epochMs(ctx);
    const nextJobId = page.next
      ? Number(
          db
            .prepare('INSERT INTO outbox_job (fence_id, root_fence_id, phase, cursor, created_at_ms) VALUES (?, ?, ?, ?, ?)')
            .run(fence.fence_id, mine.root_fence_id, page.next.phase, page.next.cursor, nowMs).lastInsertRowid,
        )
      : null;
    const ledgerRows = db.prepare('SELECT * FROM projection_ledger WHERE job_id = ? ORDER BY claim_id').all(mine.job_id);
    const receipt = appendReceipt(ctx, {
      action: 'revocation:converge',
      // The claims whose projections it wrote are named too: a reader not cleared for one of them
      // sees the receipt withheld, not the claim's id and projection (redact.ts).
      targets: [`job:${mine.job_id}`, `fence:${fence.fence_id}`, `revision:${fence.revision_id}`, ...page.projections.map(([claimId]) => `claim:${claimId}`)],
      body: {
        jobId: mine.job_id,
        fenceId: fence.fence_id,
        rootFenceId: mine.root_fence_id,
        revisionId: fence.revision_id,
        phase: mine.phase,
        cursor: mine.cursor,
        converged: page.converged,
        derivedFences: page.derivedFences,
        remediationsOpened: page.opened,
        nextJobId,
        projections: page.projections,
        derivedFenceIds: page.derivedFenceIds,
      },
      artifacts: {
        ledger: sha256Hex(canonicalJson(ledgerRows)),
        remediations: sha256Hex(canonicalJson(openedRemediations(db, mine.job_id))),
        derivedFences: derivedFencesDigest(db, page.derivedFenceIds),
      },
    });
    const done = db
      .prepare(`UPDATE outbox_job SET status = 'DONE', done_at_ms = ?, converged = ?, receipt_seq = ? WHERE job_id = ? AND lease_owner = ? AND status = 'OPEN'`)
      .run(nowMs, page.converged, receipt.seq, mine.job_id, opts.owner).changes;
    // Stryker disable next-line StringLiteral: unreachable; the lease was read OPEN and ours in this same IMMEDIATE transaction
    if (done !== 1) throw new Error(`revocation worker: job ${mine.job_id} could not be marked DONE`);
    return { ...base, converged: page.converged, derivedFences: page.derivedFences, remediationsOpened: page.opened, nextJobId, lost: false };
  });
}

export interface WorkerRun {
  jobs: JobOutcome[];
  openJobs: number;
}

export const openJobCount = (db: CaseDb): number =>
  (db.prepare(`SELECT COUNT(*) AS n FROM outbox_job WHERE status = 'OPEN'`).get() as { n: number }).n;

/**
 * The open job whose lease frees first, among those another worker holds now: what a run that
 * found no job to take is waiting for (a worker still at it, or one that died holding the lease).
 */
export function firstHeldJob(db: CaseDb, now: number = Date.now()): { owner: string; expiresAt: number } | null {
  const row = db
    .prepare(
      `SELECT lease_owner AS owner, lease_expires_at AS expiresAt FROM outbox_job
       WHERE status = 'OPEN' AND lease_expires_at > ? ORDER BY lease_expires_at LIMIT 1`,
    )
    .get(now) as { owner: string; expiresAt: number } | undefined;
  return row ?? null;
}

/**
 * Takes the next job for `ctx`'s reviewer to converge, after making sure they can sign its
 * receipt: a lease taken by someone who cannot sign would be a write with nothing to show for it.
 */
export function claimJobToSign(ctx: ServiceContext, opts: WorkerOptions): JobRow | null {
  signingKeyFor(ctx, 'revocation:converge');
  return claimNextJob(ctx.db, opts);
}

/** Takes and processes up to `maxJobs` jobs now. */
export function runWorker(ctx: ServiceContext, opts: WorkerOptions & { maxJobs: number }): WorkerRun {
  const jobs: JobOutcome[] = [];
  while (jobs.length < opts.maxJobs) {
    const job = claimJobToSign(ctx, opts);
    if (!job) break;
    jobs.push(processJob(ctx, job, opts));
  }
  return { jobs, openJobs: openJobCount(ctx.db) };
}
