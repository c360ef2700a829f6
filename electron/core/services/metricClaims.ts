import { deriveClaimStatus } from '../../../shared/domain/claimStatus';
import type { ClaimSummary } from '../../../shared/domain/schemas';
import { METRIC_DEFINITIONS, type RateMetric } from '../../../shared/ipc/channels/drill';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { visibleClaimRowsIn } from '../store/claimRows';
import { ancestorFences } from '../store/fenceRows';
import { IN_FORCE } from '../store/reviewRows';
import { claimStatusBasis } from './claims';
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
 * Claims whose full support could collapse, with how many merges could happen at most: pairs of
 * visible FULL_SUPPORT bindings of the current generation (from the claim summaries) linked as a
 * probable copy or sharing a source reference or an independence group (each found
 * from its own index: only the linked revisions are read), plus claims binding a revision with
 * PROV edges, whose trace may end in a shared source (Infinity: always recounted).
 */
function collapsibleClaims(ctx: ServiceContext, summaries: readonly ClaimSummary[]): Map<string, number> {
  const acl = aclFilter(ctx.actor, 'c');
  const out = new Map<string, number>();
  const add = (claimId: string, merges: number) => out.set(claimId, merges < 0 || out.get(claimId) === Infinity ? Infinity : (out.get(claimId) ?? 0) + merges);
  // Every link, confirmed ones too (the key index covers it; an independent pair only makes the bound looser).
  const copiesOf = new Map<string, string[]>();
  for (const [copy, original] of ctx.db.prepare('SELECT revision_id, copy_of FROM evidence_copy INDEXED BY sqlite_autoindex_evidence_copy_1').raw().all() as [string, string][]) {
    const known = copiesOf.get(copy);
    if (known) known.push(original);
    else copiesOf.set(copy, [original]);
  }
  for (const c of summaries) {
    if (c.bindings.length < 2) continue;
    let merges = 0;
    let full: Set<string> | undefined;
    for (const b of c.bindings) {
      const originals = b.relation === 'FULL_SUPPORT' ? copiesOf.get(b.revisionId) : undefined;
      if (!originals) continue;
      full ??= new Set(c.bindings.filter((x) => x.relation === 'FULL_SUPPORT').map((x) => x.revisionId));
      for (const original of originals) if (full.has(original)) merges += 1;
    }
    if (merges > 0) add(c.claimId, merges);
  }
  const bound = `CROSS JOIN claim_binding b ON b.revision_id = r.revision_id CROSS JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
       WHERE b.relation = 'FULL_SUPPORT' AND ${acl.sql}`;
  const shared = ctx.db
    .prepare(
      `SELECT b.claim_id, COUNT(*) - 1 AS merges FROM (SELECT source_ref FROM evidence_revision GROUP BY source_ref HAVING COUNT(*) > 1) s
         CROSS JOIN evidence_revision r ON r.source_ref = s.source_ref ${bound} GROUP BY b.claim_id, r.source_ref HAVING COUNT(*) > 1
       UNION ALL
       SELECT b.claim_id, COUNT(*) - 1 FROM (SELECT independence_group FROM evidence_revision WHERE independence_group IS NOT NULL GROUP BY 1 HAVING COUNT(*) > 1) g
         CROSS JOIN evidence_revision r ON r.independence_group = g.independence_group ${bound} GROUP BY b.claim_id, r.independence_group HAVING COUNT(*) > 1
       UNION ALL
       SELECT DISTINCT b.claim_id, -1 FROM prov_edge pe CROSS JOIN prov_node n ON n.node_id = pe.subject
         CROSS JOIN evidence_revision r ON r.revision_id = n.revision_id ${bound}`,
    )
    .all(...acl.params, ...acl.params, ...acl.params) as { claim_id: string; merges: number }[];
  for (const r of shared) add(r.claim_id, r.merges);
  return out;
}

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
  const merges = collapsibleClaims(ctx, summaries);
  const collapsed = summaries.filter((c) => c.status === 'INSUFFICIENT' && c.support.all > c.support.independent && c.missingKinds.length === 0);
  const minimum = new Map(
    (ctx.db
      .prepare(`SELECT claim_id, json_extract(policy, '$.minIndependentSources') AS n FROM claim WHERE claim_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify([...merges.keys(), ...collapsed.map((c) => c.claimId)])) as { claim_id: string; n: number | null }[]).map((r) => [r.claim_id, Math.max(1, r.n ?? 1)]),
  );
  const atRisk = [...merges.entries()].filter(([id, m]) => {
    const c = byId.get(id);
    if (c?.status !== 'SUPPORTED') return false;
    const unmerged = m - (c.support.all - c.support.independent);
    return unmerged > 0 && c.support.independent - unmerged < minimum.get(id)!;
  });
  const falseConsensus: string[] = [];
  for (const row of visibleClaimRowsIn(ctx, atRisk.map(([id]) => id))) {
    const basis = claimStatusBasis(ctx, row);
    const recount = deriveClaimStatus({ bindings: basis.inputs, policy: basis.policy, unresolvedByReviewer: basis.unresolved }).status;
    if (recount !== 'SUPPORTED') falseConsensus.push(row.claim_id);
  }
  const prevented = collapsed.filter((c) => c.support.all >= minimum.get(c.claimId)! && c.support.independent < minimum.get(c.claimId)!).map((c) => c.claimId);
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

