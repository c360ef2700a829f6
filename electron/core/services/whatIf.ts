import type { ClaimStatus } from '../../../shared/domain/enums';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import type { CasePointOfFailure, PointOfFailure, WhatIfClaim } from '../../../shared/ipc/channels/whatIf';
import type { ServiceContext } from '../context';
import { readTransaction } from '../store/caseFile';
import { loadVisibleClaim, visibleClaimRowsIn, visibleClaims, type ClaimRow } from '../store/claimRows';
import { loadVisibleRevision } from '../store/evidenceRows';
import { ancestorRevisions, descendantRevisions } from '../store/fenceRows';
import { effectiveDecisions } from '../store/reviewRows';
import { visibleRefs } from './claimBasis';
import { claimStatusBasis, deriveStatusFrom, type ClaimStatusBasis } from './claims';
import { perClaim, type ClaimSet } from './claimMemo';
import { liveProjection, loadProjectionStatesInPages, projectionBefore } from './projection';
import { openRemediationClaims, opensRemediation } from './remediationRows';

/**
 * What-if (issue 14 §2): which claims hang on one thread. Nothing here decides a status: the
 * claim's own basis is derived again by the status rule (deriveStatusFrom) with some bound
 * revisions taken as unusable, exactly as revoking them would leave them (a revoked revision is not
 * VALIDATED; one derived from it through PROV is stale), and the support projection and the
 * remediation a revocation would open are judged by the worker's own rules (liveProjection with a
 * counterfactual, projectionBefore, opensRemediation). Nothing is written.
 */

const CLAIMS_SHOWN = 500;
const SAMPLE = 5;

/** The claim's bound revisions among `lost` (the pretended revisions and what derives from them). */
function lostBindings(basis: ClaimStatusBasis, lost: ReadonlySet<string>): Set<string> {
  return new Set(basis.bindings.map(({ binding }) => binding.revision_id).filter((ref) => lost.has(ref)));
}

function titlesOf(ctx: ServiceContext, refs: readonly string[]): Map<string, string> {
  if (refs.length === 0) return new Map();
  const rows = ctx.db
    .prepare('SELECT r.revision_id, l.title FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE r.revision_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(refs)) as { revision_id: string; title: string }[];
  return new Map(rows.map((r) => [r.revision_id, r.title]));
}

export function whatIfRevoke(ctx: ServiceContext, req: ParsedRequestOf<'whatIf:revoke'>): ResponseOf<'whatIf:revoke'> {
  return readTransaction(ctx.db, () => {
    const pretended = [...new Set(req.revisionIds)];
    const revisions = pretended.map((id) => loadVisibleRevision(ctx.db, ctx.actor, id, 'whatIf:revoke'));
    const derived = descendantRevisions(ctx.db, pretended).filter((id) => !pretended.includes(id));
    const lost = new Set([...pretended, ...derived]);
    const reachedIds = ctx.db
      .prepare(
        `SELECT DISTINCT b.claim_id FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
         WHERE b.revision_id IN (SELECT value FROM json_each(?))`,
      )
      .pluck()
      .all(JSON.stringify([...lost])) as string[];
    const claims = visibleClaimRowsIn(ctx, reachedIds);
    const ids = claims.map((c) => c.claim_id);
    const states = loadProjectionStatesInPages(ctx.db, ids);
    const decisions = effectiveDecisions(ctx.db, ids);
    const alreadyOpen = openRemediationClaims(ctx.db, ids);
    const now = ctx.now();
    const revoked = new Map(pretended.map((id) => [id, 'REVOKED' as const]));
    const stale = new Set(derived);
    const reached: WhatIfClaim[] = claims.map((claim) => {
      const basis = claimStatusBasis(ctx, claim);
      const s = states.get(claim.claim_id)!;
      const after = liveProjection(s, now, undefined, {
        states: revoked,
        ignoreRoots: new Set(),
        alsoStale: new Set(s.bindings.map((b) => b.revision_id).filter((ref) => stale.has(ref))),
      }).projection;
      const before = projectionBefore(s, now);
      const decision = decisions.get(claim.claim_id);
      const lostHere = lostBindings(basis, lost);
      return {
        claimId: claim.claim_id,
        statement: claim.statement,
        statusBefore: deriveStatusFrom(basis).status,
        statusAfter: deriveStatusFrom(basis, lostHere).status,
        projectionBefore: before,
        projectionAfter: after,
        decisionId: decision?.decision_id ?? null,
        opensRemediation: opensRemediation({ before, after, decision, generation: s.generation, alreadyOpen: alreadyOpen.has(claim.claim_id) }),
        // Named only when the reader may see them.
        lost: [...lostHere],
      };
    });
    const changed = (c: WhatIfClaim) => c.statusBefore !== c.statusAfter || c.opensRemediation;
    const ordered = [...reached.filter(changed), ...reached.filter((c) => !changed(c))];
    const shownDerived = visibleRefs(ctx.db, ctx.actor, derived);
    const computations = ctx.db
      .prepare(
        `SELECT DISTINCT c.computation_id AS computationId, c.claim_id AS claimId, c.question FROM computation c
         JOIN claim cl ON cl.claim_id = c.claim_id AND cl.generation = c.generation
         JOIN computation_input i ON i.computation_id = c.computation_id
         WHERE c.claim_id IN (SELECT value FROM json_each(?)) AND i.revision_id IN (SELECT value FROM json_each(?))
         ORDER BY c.claim_id, c.computation_id`,
      )
      .all(JSON.stringify(ids), JSON.stringify([...lost])) as { computationId: string; claimId: string; question: string }[];
    return {
      revisions: revisions.map((r) => ({ revisionId: r.revision_id, title: r.title, state: r.state })),
      derived: derived.filter((id) => shownDerived.has(id)),
      claimsReached: reached.length,
      statusChanges: reached.filter((c) => c.statusBefore !== c.statusAfter).length,
      remediations: reached.filter((c) => c.opensRemediation).length,
      computations,
      claims: ordered.slice(0, CLAIMS_SHOWN),
    };
  });
}

/**
 * The single points of failure of each claim: every bound revision, every (visible) revision its
 * bound evidence derives from, and every original source it traces to, whose loss alone would
 * change the claim's status. One batch of claims at a time (ancestors read once per batch).
 */
type Point = Omit<PointOfFailure, 'title'>;
interface ClaimPoints {
  status: ClaimStatus;
  points: Point[];
}

function pointsOfFailureOf(ctx: ServiceContext, claims: readonly ClaimRow[]): ClaimPoints[] {
  const bases = claims.map((c) => claimStatusBasis(ctx, c));
  const bound = [...new Set(bases.flatMap((b) => b.bindings.map(({ binding }) => binding.revision_id)))];
  const ancestors = ancestorRevisions(ctx.db, bound);
  const shownAncestors = visibleRefs(ctx.db, ctx.actor, [...new Set([...ancestors.values()].flat())]);
  return bases.map((basis) => {
    const status = deriveStatusFrom(basis).status;
    const refs = basis.inputs.map((b) => b.revisionRef);
    const points: Point[] = [];
    const consider = (ref: string, kind: PointOfFailure['kind'], lost: Set<string>) => {
      const after = deriveStatusFrom(basis, lost).status;
      if (after !== status) points.push({ ref, kind, statusAfter: after, lost: [...lost] });
    };
    const derivesFrom = (child: string, parent: string) => ancestors.get(child)?.includes(parent) ?? false;
    for (const ref of refs) consider(ref, 'bound', new Set(refs.filter((r) => r === ref || derivesFrom(r, ref))));
    const upstream = new Set(refs.flatMap((r) => ancestors.get(r) ?? []).filter((a) => shownAncestors.has(a) && !refs.includes(a)));
    for (const a of [...upstream].sort()) consider(a, 'derivedFrom', new Set(refs.filter((r) => derivesFrom(r, a))));
    const sources = [...new Set(basis.inputs.flatMap((b) => b.originalSources))].sort();
    for (const key of sources) consider(key, 'source', new Set(basis.inputs.filter((b) => b.originalSources.includes(key)).map((b) => b.revisionRef)));
    return { status, points };
  });
}

const titled = (ctx: ServiceContext, points: readonly Point[]): PointOfFailure[] => {
  const titles = titlesOf(ctx, points.filter((p) => p.kind !== 'source').map((p) => p.ref));
  return points.map((p) => ({ ...p, title: titles.get(p.ref) ?? p.ref.replace(/^source:/, '') }));
};

const pointsFacet = (ctx: ServiceContext, set: ClaimSet) => perClaim(ctx, 'pointsOfFailure', set, (claims) => pointsOfFailureOf(ctx, claims));

export function claimPointsOfFailure(ctx: ServiceContext, req: ParsedRequestOf<'whatIf:claim'>): ResponseOf<'whatIf:claim'> {
  return readTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, 'whatIf:claim');
    const [{ status, points }] = pointsFacet(ctx, { ids: () => [claim.claim_id], rows: () => [claim] }).values as [ClaimPoints];
    return { claimId: claim.claim_id, status, points: titled(ctx, points) };
  });
}

interface Ranked {
  ref: string;
  kind: CasePointOfFailure['kind'];
  flips: CasePointOfFailure['sample'];
  decidedClaims: number;
}

/**
 * The last ranking of each case and the per-claim points it was ranked from. The memo hands back
 * the same objects while nothing logged touches a claim (a decision on it included: decisions are
 * logged), so when every value is the one ranked last time, so is the ranking.
 */
const rankings = new WeakMap<ServiceContext['db'], { values: readonly ClaimPoints[]; ranked: Ranked[]; claimsWithPoints: number }>();

function rank(ctx: ServiceContext, claims: readonly ClaimRow[], values: readonly ClaimPoints[]): { ranked: Ranked[]; claimsWithPoints: number } {
  const last = rankings.get(ctx.db);
  if (last && last.values.length === values.length && last.values.every((v, i) => v === values[i])) return last;
  const withPoints = claims.flatMap((c, i) => (values[i]!.points.length > 0 ? [{ claim: c, ...values[i]! }] : []));
  const decided = effectiveDecisions(ctx.db, withPoints.map((c) => c.claim.claim_id));
  const byRef = new Map<string, { kind: CasePointOfFailure['kind']; flips: CasePointOfFailure['sample'] }>();
  for (const { claim, status, points } of withPoints) {
    for (const p of points) {
      const entry = byRef.get(p.ref) ?? { kind: p.kind === 'source' ? ('source' as const) : ('revision' as const), flips: [] };
      entry.flips.push({ claimId: claim.claim_id, statusBefore: status, statusAfter: p.statusAfter, decided: decided.has(claim.claim_id) });
      byRef.set(p.ref, entry);
    }
  }
  const ranked = [...byRef].map(([ref, e]) => ({ ref, ...e, decidedClaims: e.flips.filter((f) => f.decided).length }));
  ranked.sort((a, b) => b.decidedClaims - a.decidedClaims || b.flips.length - a.flips.length || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  const fresh = { values, ranked, claimsWithPoints: withPoints.length };
  rankings.set(ctx.db, fresh);
  return fresh;
}

export function casePointsOfFailure(ctx: ServiceContext, req: ParsedRequestOf<'whatIf:case'>): ResponseOf<'whatIf:case'> {
  return readTransaction(ctx.db, () => {
    const { claims, values } = pointsFacet(ctx, visibleClaims(ctx));
    const { ranked, claimsWithPoints } = rank(ctx, claims, values as ClaimPoints[]);
    const page = ranked.slice(req.offset, req.offset + req.limit);
    const titles = titlesOf(ctx, page.filter((p) => p.kind === 'revision').map((p) => p.ref));
    return {
      total: ranked.length,
      claimsWithPoints,
      items: page.map((p) => ({
        ref: p.ref,
        kind: p.kind,
        title: titles.get(p.ref) ?? p.ref.replace(/^source:/, ''),
        claims: p.flips.length,
        decidedClaims: p.decidedClaims,
        sample: [...p.flips.filter((f) => f.decided), ...p.flips.filter((f) => !f.decided)].slice(0, SAMPLE),
      })),
    };
  });
}
