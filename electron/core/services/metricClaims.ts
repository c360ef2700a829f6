import type { ClaimStatus } from '../../../shared/domain/enums';
import type { ClaimSummary } from '../../../shared/domain/schemas';
import { METRIC_DEFINITIONS, type RateMetric } from '../../../shared/ipc/channels/drill';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { policyOf, visibleClaimRowsIn, visibleClaims, type ClaimRow } from '../store/claimRows';
import { ancestorFences } from '../store/fenceRows';
import { IN_FORCE } from '../store/reviewRows';
import { claimStatusBasis, deriveStatusFrom } from './claims';
import { perClaim } from './claimMemo';
import { claimProjection } from './projection';
import { openRemediationClaims } from './remediationRows';
import { COUNTED_RELATIONS, list, rate, sample } from './metricRates';

/** The claim-side §37 metrics: conflicts, corroboration, false consensus, stale evidence use. */
/**
 * Conflict detection rate: visible claims with usable support and usable refutation (counted as
 * the status rule counts them) that reached the dispute queue (status MIXED) or on which a
 * reviewer recorded that they cannot be decided (UNRESOLVED) / visible claims with both.
 * 1 by construction of the status rule; less means a conflict went missing from the queue.
 */
export function conflictDetectionRate(summaries: readonly ClaimSummary[]): RateMetric {
  const both = summaries.filter((c) => c.support.all + c.partialSupport.all > 0 && c.refute.all > 0);
  const mixed = both.filter((c) => c.status === 'MIXED').map((c) => c.claimId);
  const unresolved = both.filter((c) => c.status === 'UNRESOLVED').map((c) => c.claimId);
  const missed = both.filter((c) => c.status !== 'MIXED' && c.status !== 'UNRESOLVED').map((c) => c.claimId);
  return rate({
    name: 'Conflict detection rate',
    definition: METRIC_DEFINITIONS.conflictDetectionRate,
    numerator: mixed.length + unresolved.length,
    denominator: both.length,
    goal: 'one',
    breakdown: { mixed: mixed.length, unresolved: unresolved.length, missed: missed.length },
    ids: [sample('conflicting claims in the dispute queue', 'claim', mixed), sample('conflicting claims recorded UNRESOLVED', 'claim', unresolved), sample('conflicting claims not in the queue', 'claim', missed)],
  });
}

/** Independent corroboration rate: SUPPORTED visible claims with at least 2 independent sources (|I_c| ≥ 2) / SUPPORTED visible claims. */
export function independentCorroborationRate(summaries: readonly ClaimSummary[]): RateMetric {
  const supported = summaries.filter((c) => c.status === 'SUPPORTED');
  const two = supported.filter((c) => c.support.independent >= 2).map((c) => c.claimId);
  const one = supported.filter((c) => c.support.independent < 2).map((c) => c.claimId);
  return rate({
    name: 'Independent corroboration rate',
    definition: METRIC_DEFINITIONS.independentCorroborationRate,
    numerator: two.length,
    denominator: supported.length,
    goal: 'higher',
    breakdown: { supported: supported.length, collapsed: supported.filter((c) => c.support.all > c.support.independent).length },
    ids: [sample('SUPPORTED claims with 2 or more independent sources', 'claim', two), sample('SUPPORTED claims resting on one independent source', 'claim', one)],
  });
}

/**
 * How many merges collapsing could make at most in each claim's full support (Infinity: always
 * recount), from the visible FULL_SUPPORT bindings of its current generation: pairs linked as a
 * probable copy (confirmed links too: an independent pair only makes the bound looser), and
 * bindings sharing a source reference or an independence group; a revision recording PROV edges
 * may trace to a source shared with another, so it always recounts. Everything it reads is
 * logged in claim_change (the claim, its bindings, their revisions, copy links, PROV edges), so
 * it is kept per claim with the summaries (claimMemo.ts): a dashboard re-read costs a lookup.
 */
function mergeBounds(ctx: ServiceContext, claims: readonly ClaimRow[]): number[] {
  const acl = aclFilter(ctx.actor, 'r', { useIndex: false });
  const rows = ctx.db
    .prepare(
      `SELECT b.claim_id, r.revision_id, r.source_ref, r.independence_group,
         EXISTS (SELECT 1 FROM prov_node n JOIN prov_edge pe ON pe.subject = n.node_id WHERE n.revision_id = r.revision_id) AS traced
       FROM claim c CROSS JOIN claim_binding b ON b.claim_id = c.claim_id AND b.generation = c.generation
       CROSS JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE c.claim_id IN (SELECT value FROM json_each(?)) AND b.relation = 'FULL_SUPPORT' AND ${acl.sql}`,
    )
    .all(JSON.stringify(claims.map((c) => c.claim_id)), ...acl.params) as {
    claim_id: string;
    revision_id: string;
    source_ref: string;
    independence_group: string | null;
    traced: number;
  }[];
  const copies = ctx.db
    .prepare('SELECT revision_id, copy_of FROM evidence_copy WHERE revision_id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify([...new Set(rows.map((r) => r.revision_id))])) as [string, string][];
  const originalsOf = new Map<string, string[]>();
  for (const [copy, original] of copies) originalsOf.set(copy, (originalsOf.get(copy) ?? []).concat(original));
  const byClaim = new Map<string, typeof rows>();
  for (const r of rows) {
    const bound = byClaim.get(r.claim_id);
    if (bound) bound.push(r);
    else byClaim.set(r.claim_id, [r]);
  }
  // Each group of n bindings sharing a key can merge n - 1 times.
  const sharing = (keys: (string | null)[]) => {
    const seen = new Set<string>();
    let merges = 0;
    for (const k of keys) {
      if (k === null) continue;
      if (seen.has(k)) merges += 1;
      else seen.add(k);
    }
    return merges;
  };
  return claims.map((c) => {
    const full = byClaim.get(c.claim_id) ?? [];
    if (full.length < 2) return 0;
    if (full.some((r) => r.traced === 1)) return Infinity;
    const ids = new Set(full.map((r) => r.revision_id));
    const copyPairs = full.reduce((n, r) => n + (originalsOf.get(r.revision_id) ?? []).filter((o) => ids.has(o)).length, 0);
    return copyPairs + sharing(full.map((r) => r.source_ref)) + sharing(full.map((r) => r.independence_group));
  });
}

/** The claims among `shown` whose full support could collapse: each one's row and the most merges collapsing could make (mergeBounds). */
function collapsible(ctx: ServiceContext, shown: ReadonlyMap<string, ClaimSummary>): Map<string, { row: ClaimRow; merges: number }> {
  const { claims, values } = perClaim(ctx, 'mergeBound', visibleClaims(ctx), (rows) => mergeBounds(ctx, rows));
  const out = new Map<string, { row: ClaimRow; merges: number }>();
  for (let i = 0; i < claims.length; i++) if (values[i]! > 0 && shown.has(claims[i]!.claim_id)) out.set(claims[i]!.claim_id, { row: claims[i]!, merges: values[i]! });
  return out;
}

/** The status rule's answer for each claim from its bindings as the reader sees them, kept like the summaries. */
const recounted = (ctx: ServiceContext, claimIds: readonly string[]): Map<string, ClaimStatus> => {
  const set = { ids: () => [...claimIds], rows: (ids: readonly string[]) => visibleClaimRowsIn(ctx, ids) };
  const { claims, values } = perClaim(ctx, 'recount', set, (rows) => rows.map((row) => deriveStatusFrom(claimStatusBasis(ctx, row)).status));
  return new Map(claims.map((c, i) => [c.claim_id, values[i]!]));
};

/**
 * False consensus rate (seed 000 §38.2): SUPPORTED visible claims that are SUPPORTED only because
 * copies were counted as independent / SUPPORTED visible claims. The store finds, from its own
 * indexes, every merge collapsing could make in a claim's full support (collapsibleClaims); a
 * SUPPORTED claim whose shown count did not make them all, and that would fall below its policy
 * if it had to, is recounted now by the status rule from its bindings as the reader sees them.
 * Shown SUPPORTED but not SUPPORTED on the recount is false consensus: 0 by construction, and the
 * recount is the check. Beside it, from the shown counts: claims kept INSUFFICIENT whose full
 * support would meet the policy if every item counted as its own source (consensus prevented).
 * Exported so a test can hand it the summaries a counter that ignored copies would have shown.
 */
export function falseConsensusRate(ctx: ServiceContext, summaries: readonly ClaimSummary[]): RateMetric {
  const byId = new Map(summaries.map((c) => [c.claimId, c]));
  const supported = summaries.filter((c) => c.status === 'SUPPORTED').length;
  const merges = collapsible(ctx, byId);
  const minimum = (claimId: string) => Math.max(1, policyOf(merges.get(claimId)!.row).minIndependentSources ?? 1);
  // A claim whose count collapsed had something to merge, so it is among the collapsible ones.
  const collapsed = summaries.filter((c) => c.status === 'INSUFFICIENT' && c.support.all > c.support.independent && c.missingKinds.length === 0 && merges.has(c.claimId));
  const atRisk = [...merges].filter(([id, { merges: m }]) => {
    const c = byId.get(id);
    if (c?.status !== 'SUPPORTED') return false;
    const unmerged = m - (c.support.all - c.support.independent);
    return unmerged > 0 && c.support.independent - unmerged < minimum(id);
  });
  const falseConsensus = [...recounted(ctx, atRisk.map(([id]) => id))].filter(([, status]) => status !== 'SUPPORTED').map(([id]) => id);
  const prevented = collapsed.filter((c) => c.support.all >= minimum(c.claimId) && c.support.independent < minimum(c.claimId)).map((c) => c.claimId);
  return rate({
    name: 'False consensus rate',
    definition: METRIC_DEFINITIONS.falseConsensusRate,
    numerator: falseConsensus.length,
    denominator: supported,
    goal: 'zero',
    breakdown: { collapsible: merges.size, recounted: atRisk.length, preventedByCollapse: prevented.length },
    ids: [sample('claims SUPPORTED only through copies', 'claim', falseConsensus), sample('claims copies would have made SUPPORTED (kept INSUFFICIENT)', 'claim', prevented)],
  });
}

/** Decisions in force: each visible claim's latest APPROVED decision, made on the claim's current generation and exactly its current bindings. */
export function decisionsInForce(ctx: ServiceContext): { decision_id: string; claim_id: string; generation: number; proposed_at: string }[] {
  const acl = aclFilter(ctx.actor, 'c');
  return ctx.db
    .prepare(
      `SELECT d.decision_id, d.claim_id, d.generation, d.proposed_at FROM decision d JOIN claim c ON c.claim_id = d.claim_id
       WHERE ${IN_FORCE('d')} AND ${acl.sql} AND d.generation = c.generation
         AND json(d.evidence_refs) = (SELECT json_group_array(revision_id) FROM
           (SELECT b.revision_id FROM claim_binding b WHERE b.claim_id = d.claim_id AND b.generation = d.generation ORDER BY b.revision_id))
       ORDER BY d.decision_id`,
    )
    .all(...acl.params) as { decision_id: string; claim_id: string; generation: number; proposed_at: string }[];
}

/**
 * Stale evidence use rate: decisions in force that cite (as REQUIRED or SUPPORTING, with a
 * relation that counts) a revision that stopped being current after the decision was proposed,
 * with nothing on the read path saying so / decisions in force. A revision stops being current
 * when it leaves VALIDATED (superseded, revoked, quarantined, disputed) or is derived (PROV) from
 * one that did. Saying so: an open remediation of the claim, or its support projection read as
 * pending revalidation or anything but ELIGIBLE. Must be 0.
 */
export function staleEvidenceUseRate(ctx: ServiceContext): RateMetric {
  const inForce = decisionsInForce(ctx);
  const ids = JSON.stringify(inForce.map((d) => d.decision_id));
  const cited = ctx.db
    .prepare(
      `SELECT d.decision_id, d.claim_id, d.proposed_at, r.revision_id, r.state,
         (SELECT MAX(t.at) FROM evidence_transition t WHERE t.revision_id = r.revision_id) AS moved_at
       FROM decision d JOIN claim_binding b ON b.claim_id = d.claim_id AND b.generation = d.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE d.decision_id IN (SELECT value FROM json_each(?))
         AND b.role IN ('REQUIRED', 'SUPPORTING') AND b.relation IN (${list(COUNTED_RELATIONS)})`,
    )
    .all(ids) as { decision_id: string; claim_id: string; proposed_at: string; revision_id: string; state: string; moved_at: string }[];
  const stale = new Map<string, string>();
  for (const c of cited) if (c.state !== 'VALIDATED' && c.moved_at > c.proposed_at) stale.set(c.decision_id, c.claim_id);
  const derivedFrom = ancestorFences(ctx.db, [...new Set(cited.map((c) => c.revision_id))]);
  for (const c of cited) if ((derivedFrom.get(c.revision_id) ?? []).some((f) => f.fenced_at > c.proposed_at)) stale.set(c.decision_id, c.claim_id);
  const remediating = openRemediationClaims(ctx.db, [...stale.values()]);
  const flagged: string[] = [];
  const unflagged: string[] = [];
  for (const [decisionId, claimId] of stale) {
    const view = remediating.has(claimId) ? null : claimProjection(ctx, claimId);
    (view === null || view.pendingRevalidation || view.projection !== 'ELIGIBLE' ? flagged : unflagged).push(decisionId);
  }
  return rate({
    name: 'Stale evidence use rate',
    definition: METRIC_DEFINITIONS.staleEvidenceUseRate,
    numerator: unflagged.length,
    denominator: inForce.length,
    goal: 'zero',
    breakdown: { citingNonCurrent: stale.size, flagged: flagged.length },
    ids: [sample('decisions relying on non-current evidence unflagged', 'decision', unflagged), sample('decisions on non-current evidence, flagged for remediation', 'decision', flagged)],
  });
}

