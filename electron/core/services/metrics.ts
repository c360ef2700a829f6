import { performance } from 'node:perf_hooks';
import { FENCING_STATES, type Classification, type EvidenceKind } from '../../../shared/domain/enums';
import { isAuthorized } from '../../../shared/domain/usable';
import { ID_SAMPLE, METRIC_DEFINITIONS, type IdSample, type MetricsReport, type RateMetric, type RevocationDelay } from '../../../shared/ipc/channels/drill';
import type { ServiceContext } from '../context';
import { aclFilter, canSee } from '../store/acl';
import { readTransaction, type CaseDb } from '../store/caseFile';
import { epochMs } from '../store/fenceRows';
import { listClaims } from './claims';
import { originalSourceKeys } from './provenance';
import { DERIVED_KINDS, delayStats, list, rate, sample } from './metricRates';
import { conflictDetectionRate, falseConsensusRate, independentCorroborationRate, staleEvidenceUseRate } from './metricClaims';
export { delayStats } from './metricRates';
export { decisionsInForce, falseConsensusRate } from './metricClaims';

/**
 * The seed's §37 metrics (DESIGN §4), computed by the store within the reader's clearance: every
 * query carries the ACL filter, so what the reader may not see is neither listed nor counted.
 * Claim-level figures read the claim summaries claim:list derives and keeps (claimMemo.ts), so a
 * dashboard next to an open claim list pays for them once; the rest is aggregate SQL over indexes.
 * Each figure comes with the ids behind it (the first ID_SAMPLE and the total).
 */

/**
 * The visible revisions counted by compartment and state, with how many were ever validated: the
 * counts provenance, validation and the ACL re-check are made of. The store keeps them per
 * compartment and state (migration 0460's triggers), so this reads a few dozen rows whatever the
 * size of the case. Ids are read afterwards, only where there is something to list.
 */
interface RevisionScan {
  total: number;
  byState: Map<string, { n: number; validated: number }>;
  compartments: { tenant: string; classification: Classification; n: number }[];
}

function scanRevisions(ctx: ServiceContext): RevisionScan {
  const acl = aclFilter(ctx.actor, 'k');
  const rows = ctx.db
    .prepare(`SELECT k.state, k.tenant, k.classification, k.n, k.validated FROM revision_count k WHERE k.n > 0 AND ${acl.sql}`)
    .all(...acl.params) as { state: string; tenant: string; classification: Classification; n: number; validated: number }[];
  const byState = new Map<string, { n: number; validated: number }>();
  for (const r of rows) {
    const s = byState.get(r.state) ?? { n: 0, validated: 0 };
    byState.set(r.state, { n: s.n + r.n, validated: s.validated + r.validated });
  }
  return { total: rows.reduce((n, r) => n + r.n, 0), byState, compartments: rows };
}

/**
 * Provenance completeness: visible revisions whose provenance reaches an original source / all
 * visible revisions. A revision reaches one when its source type, source reference and producer
 * are recorded and, if it is derived evidence (an agent summary) or records PROV edges of its own,
 * the PROV trace the reader can see ends in at least one original source (a producer is not a
 * source, DESIGN §3.2). A plain observation with no PROV edges is its own original source.
 */
interface OddRevision {
  revision_id: string;
  kind: EvidenceKind;
  source_ref: string;
  tenant: string;
  classification: Classification;
  blank: number;
}

/**
 * Revisions of a derived kind or with a blank source type, reference or producer. Those columns
 * never change (a trigger refuses it) and revision rows are never deleted, so each connection
 * keeps what it found and reads only the rows added since (rowid order), the way claimMemo keeps
 * derivations; not kept from inside a caller's transaction, whose rows a rollback could undo.
 */
const oddRevisions = new WeakMap<CaseDb, { rowid: number; rows: OddRevision[] }>();

function oddRevisionRows(ctx: ServiceContext, keep: boolean): OddRevision[] {
  const kept = oddRevisions.get(ctx.db) ?? { rowid: 0, rows: [] };
  const fresh = ctx.db
    .prepare(
      `SELECT r.revision_id, r.kind, r.source_ref, r.tenant, r.classification,
         (trim(r.source_type) = '' OR trim(r.source_ref) = '' OR trim(r.producer) = '') AS blank
       FROM evidence_revision r WHERE r.rowid > ?
         AND (r.kind IN (${list(DERIVED_KINDS)}) OR trim(r.source_type) = '' OR trim(r.source_ref) = '' OR trim(r.producer) = '')`,
    )
    .all(kept.rowid) as OddRevision[];
  const next = { rowid: (ctx.db.prepare('SELECT MAX(rowid) FROM evidence_revision').pluck().get() as number | null) ?? 0, rows: [...kept.rows, ...fresh] };
  if (keep) oddRevisions.set(ctx.db, next);
  return next.rows;
}

function provenanceCompleteness(ctx: ServiceContext, scan: RevisionScan, keep: boolean): RateMetric {
  // The PROV side leads (it is small); each revision it names is checked against the clearance.
  const acl = aclFilter(ctx.actor, 'r', { useIndex: false });
  const odd = oddRevisionRows(ctx, keep).filter((r) => canSee(ctx.actor, r));
  // Revisions that record PROV edges, found from the (small) PROV side: CROSS JOIN keeps SQLite from
  // leading with the revisions (32 ms at 50,000 revisions and not one PROV edge).
  const withEdges = ctx.db
    .prepare(
      `SELECT DISTINCT r.revision_id, r.kind, r.source_ref, r.tenant, r.classification, 0 AS blank FROM prov_edge e CROSS JOIN prov_node n ON n.node_id = e.subject
       CROSS JOIN evidence_revision r ON r.revision_id = n.revision_id WHERE ${acl.sql}`,
    )
    .all(...acl.params) as OddRevision[];
  const blank = odd.filter((r) => r.blank === 1).map((r) => r.revision_id);
  const traced = new Map([...odd, ...withEdges].filter((r) => r.blank === 0).map((r) => [r.revision_id, r]));
  for (const id of blank) traced.delete(id);
  const untraced = [...traced.values()].filter((r) => originalSourceKeys(ctx, r).length === 0).map((r) => r.revision_id);
  const incomplete = blank.length + untraced.length;
  return rate({
    name: 'Provenance completeness',
    definition: METRIC_DEFINITIONS.provenanceCompleteness,
    numerator: scan.total - incomplete,
    denominator: scan.total,
    goal: 'one',
    breakdown: { traced: traced.size, missingFields: blank.length, untraced: untraced.length },
    ids: [sample('revisions missing a source field', 'revision', blank), sample('revisions tracing to no original source', 'revision', untraced)],
  });
}

/**
 * Evidence validation rate: visible revisions that passed the validation checklist at least once
 * (a stored validation run, a reviewer override included) / visible revisions not QUARANTINED now.
 * Quarantined revisions are left out of both sides: screening took them out of normal flows and
 * they cannot be validated until released; they are shown beside the rate.
 */
function validationRate(ctx: ServiceContext, scan: RevisionScan): RateMetric {
  const acl = aclFilter(ctx.actor, 'r');
  const counted = [...scan.byState.entries()].filter(([state]) => state !== 'QUARANTINED').map(([, s]) => s);
  const denominator = counted.reduce((n, s) => n + s.n, 0);
  const numerator = counted.reduce((n, s) => n + s.validated, 0);
  const quarantinedTotal = scan.byState.get('QUARANTINED')?.n ?? 0;
  // Overrides are rare: read from the validation runs, each revision then checked against the clearance.
  const overridden = ctx.db
    .prepare(`SELECT COUNT(DISTINCT v.revision_id) FROM validation_run v CROSS JOIN evidence_revision r ON r.revision_id = v.revision_id WHERE v.override_reason IS NOT NULL AND ${acl.sql}`)
    .pluck()
    .get(...acl.params) as number;
  const never =
    denominator === numerator
      ? []
      : (ctx.db
          .prepare(
            `SELECT r.revision_id FROM evidence_revision r WHERE ${acl.sql} AND r.state <> 'QUARANTINED'
             AND NOT EXISTS (SELECT 1 FROM validation_run v WHERE v.revision_id = r.revision_id) LIMIT ${ID_SAMPLE}`,
          )
          .pluck()
          .all(...acl.params) as string[]);
  const quarantined =
    quarantinedTotal === 0
      ? []
      : (ctx.db.prepare(`SELECT r.revision_id FROM evidence_revision r WHERE r.state = 'QUARANTINED' AND ${acl.sql} LIMIT ${ID_SAMPLE}`).pluck().all(...acl.params) as string[]);
  return rate({
    name: 'Evidence validation rate',
    definition: METRIC_DEFINITIONS.validationRate,
    numerator,
    denominator,
    goal: 'higher',
    breakdown: { ...Object.fromEntries([...scan.byState.entries()].map(([state, s]) => [state, s.n])), overridden },
    ids: [sample('revisions never validated', 'revision', never, denominator - numerator), sample('revisions quarantined now', 'revision', quarantined, quarantinedTotal)],
  });
}

/**
 * Revocation propagation delay (DESIGN §3.5). Fence: for every move of a visible revision out of
 * normal flows after ingest, the fence committed with it and the delay from the transition's
 * time to the fence's (0: written in the same transaction; a move without a fence is listed).
 * Convergence: outbox jobs created → done, and per revoke/supersede/quarantine/dispute, fence
 * commit → the last job of its fence tree done, as p50/p95/max; open jobs and the oldest one's age.
 */
function revocationPropagationDelay(ctx: ServiceContext): RevocationDelay {
  // Transitions, jobs and fences lead; each one's revision is checked against the clearance (led by
  // the clearance index, the two job reads walked all 50,000 revisions of a large case: 150 ms).
  const acl = aclFilter(ctx.actor, 'r', { useIndex: false });
  const moves = ctx.db
    .prepare(
      `SELECT t.revision_id, t.at, f.fence_id, f.fenced_at_ms FROM evidence_transition t
       CROSS JOIN evidence_revision r ON r.revision_id = t.revision_id
       LEFT JOIN revocation_fence f ON f.revision_id = t.revision_id AND f.cause = t.to_state AND f.fenced_at = t.at
       WHERE t.from_state IS NOT NULL AND t.to_state IN (${list(FENCING_STATES)}) AND ${acl.sql}`,
    )
    .all(...acl.params) as { revision_id: string; at: string; fence_id: number | null; fenced_at_ms: number | null }[];
  const fenced = moves.filter((m) => m.fence_id !== null);
  const fenceDelays = fenced.map((m) => m.fenced_at_ms! - Date.parse(m.at));
  const unfenced = moves.filter((m) => m.fence_id === null).map((m) => m.revision_id);
  const jobs = ctx.db
    .prepare(
      `SELECT j.job_id, j.status, j.created_at_ms, j.done_at_ms FROM outbox_job j
       JOIN revocation_fence f ON f.fence_id = j.root_fence_id JOIN evidence_revision r ON r.revision_id = f.revision_id WHERE ${acl.sql}`,
    )
    .all(...acl.params) as { job_id: number; status: 'OPEN' | 'DONE'; created_at_ms: number; done_at_ms: number | null }[];
  const trees = ctx.db
    .prepare(
      `SELECT f.fence_id, f.fenced_at_ms, MAX(j.done_at_ms) AS last_done, SUM(j.status = 'OPEN') AS open FROM revocation_fence f
       JOIN evidence_revision r ON r.revision_id = f.revision_id JOIN outbox_job j ON j.root_fence_id = f.fence_id
       WHERE f.cause <> 'DERIVED' AND ${acl.sql} GROUP BY f.fence_id`,
    )
    .all(...acl.params) as { fence_id: number; fenced_at_ms: number; last_done: number | null; open: number }[];
  const open = jobs.filter((j) => j.status === 'OPEN');
  const nowMs = epochMs(ctx);
  const fenceDelay = delayStats(fenceDelays);
  return {
    name: 'Revocation propagation delay',
    definition: METRIC_DEFINITIONS.revocationPropagationDelay,
    fence: {
      definition: METRIC_DEFINITIONS.revocationFence,
      transitions: moves.length,
      fenced: fenced.length,
      delay: fenceDelay,
      meetsGoal: unfenced.length === 0 && (fenceDelay.maxMs ?? 0) <= 0,
      ids: [sample('revisions moved out of normal flows without a fence', 'revision', unfenced)],
    },
    convergence: {
      definition: METRIC_DEFINITIONS.revocationConvergence,
      jobs: delayStats(jobs.filter((j) => j.status === 'DONE').map((j) => j.done_at_ms! - j.created_at_ms)),
      fences: delayStats(trees.filter((t) => t.open === 0 && t.last_done !== null).map((t) => t.last_done! - t.fenced_at_ms)),
      openJobs: open.length,
      oldestOpenJobAgeMs: open.length === 0 ? null : Math.max(0, nowMs - Math.min(...open.map((j) => j.created_at_ms))),
      ids: [
        sample('open outbox jobs', 'job', open.map((j) => String(j.job_id))),
        sample('revocations not yet converged', 'fence', trees.filter((t) => t.open > 0).map((t) => String(t.fence_id))),
      ],
    },
  };
}

/** The compartment of each named id, read as the store (for the ACL re-check only; never returned). */
function compartmentsOf(ctx: ServiceContext, kind: IdSample['kind'], ids: readonly string[]): { tenant: string; classification: Classification }[] {
  const from: Record<IdSample['kind'], string> = {
    revision: 'SELECT tenant, classification FROM evidence_revision WHERE revision_id IN (SELECT value FROM json_each(?))',
    claim: 'SELECT tenant, classification FROM claim WHERE claim_id IN (SELECT value FROM json_each(?))',
    decision: 'SELECT c.tenant, c.classification FROM decision d JOIN claim c ON c.claim_id = d.claim_id WHERE d.decision_id IN (SELECT value FROM json_each(?))',
    fence: 'SELECT r.tenant, r.classification FROM revocation_fence f JOIN evidence_revision r ON r.revision_id = f.revision_id WHERE f.fence_id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))',
    job: `SELECT r.tenant, r.classification FROM outbox_job j JOIN revocation_fence f ON f.fence_id = j.root_fence_id
          JOIN evidence_revision r ON r.revision_id = f.revision_id WHERE j.job_id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`,
  };
  return ids.length === 0 ? [] : (ctx.db.prepare(from[kind]).all(JSON.stringify(ids)) as { tenant: string; classification: Classification }[]);
}

/**
 * Unauthorized evidence retrieval rate, as far as the store can witness it: reads are not logged,
 * so earlier retrievals cannot be counted. What is measured is this answer itself: the compartment
 * (tenant, classification) of every evidence revision and claim it counted, and of every id it
 * names, re-checked against the reader's clearance with the domain rule (shared/domain/usable.ts),
 * a second implementation beside the SQL filter that selected them. Numerator: rows or ids outside
 * the clearance (never named, only counted); denominator: rows and ids checked. Must be 0. The
 * drill probes other read paths with readers of narrower clearance.
 */
function unauthorizedRetrievalRate(ctx: ServiceContext, scan: RevisionScan, named: readonly IdSample[]): RateMetric {
  const c = aclFilter(ctx.actor, 'c');
  type Group = { tenant: string; classification: Classification; n: number };
  const groups = [
    ...scan.compartments,
    ...(ctx.db.prepare(`SELECT c.tenant, c.classification, COUNT(*) AS n FROM claim c WHERE ${c.sql} GROUP BY 1, 2`).all(...c.params) as Group[]),
    ...named.flatMap((s) => compartmentsOf(ctx, s.kind, s.ids).map((x) => ({ ...x, n: 1 }))),
  ];
  const checked = groups.reduce((n, g) => n + g.n, 0);
  const outside = groups.filter((g) => !isAuthorized(ctx.actor, g)).reduce((n, g) => n + g.n, 0);
  return rate({
    name: 'Unauthorized evidence retrieval rate',
    definition: METRIC_DEFINITIONS.unauthorizedRetrievalRate,
    numerator: outside,
    denominator: checked,
    goal: 'zero',
    breakdown: { namedIds: named.reduce((n, s) => n + s.ids.length, 0) },
    ids: [],
  });
}

/** metrics:get: the §37 metrics of the open case within the reader's clearance. */
export function caseMetrics(ctx: ServiceContext): MetricsReport {
  const started = performance.now();
  // Summaries first, outside the read transaction: claimMemo keeps them only when read on their own.
  const keep = !ctx.db.inTransaction;
  const summaries = listClaims(ctx);
  return readTransaction(ctx.db, () => {
    const scan = scanRevisions(ctx);
    const figures = {
      provenanceCompleteness: provenanceCompleteness(ctx, scan, keep),
      validationRate: validationRate(ctx, scan),
      conflictDetectionRate: conflictDetectionRate(summaries),
      independentCorroborationRate: independentCorroborationRate(summaries),
      falseConsensusRate: falseConsensusRate(ctx, summaries),
      revocationPropagationDelay: revocationPropagationDelay(ctx),
      staleEvidenceUseRate: staleEvidenceUseRate(ctx),
    };
    const named = [
      ...Object.values(figures).flatMap((f) => ('ids' in f ? f.ids : [])),
      ...figures.revocationPropagationDelay.fence.ids,
      ...figures.revocationPropagationDelay.convergence.ids,
    ];
    return {
      computedAt: ctx.now(),
      reader: ctx.actor.actorId,
      ...figures,
      unauthorizedRetrievalRate: unauthorizedRetrievalRate(ctx, scan, named),
      elapsedMs: performance.now() - started,
    };
  });
}
