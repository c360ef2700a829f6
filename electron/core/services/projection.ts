import { deriveClaimStatus, type ClaimPolicy } from '../../../shared/domain/claimStatus';
import type { BindingRole, Classification, EvidenceKind, LifecycleState, Relation, SupportProjection } from '../../../shared/domain/enums';
import { pendingReason, supportProjection, type NameRevision, type ProjectionResult } from '../../../shared/domain/supportProjection';
import { usability } from '../../../shared/domain/usable';
import type { Actor, ServiceContext } from '../context';
import type { CaseDb } from '../store/caseFile';
import type { BindingRow } from '../store/bindingRows';
import { usabilityInput } from '../store/evidenceRows';
import { policyOf, scopeOf, type ClaimRow } from '../store/claimRows';
import { visibleRefs } from './claimBasis';
import { independenceInputs, type IndependenceInputs } from './claimStatusInput';
import { ancestorFences, fencesOn, type FenceRow } from '../store/fenceRows';

/**
 * Support projections of claims (DESIGN §3.5): the live value computed from the bindings as they
 * are, the value the worker last stored (with its compare-and-swap version), and the fence check
 * every read path makes. One batch loader serves the worker (a page of 500 claims in a handful of
 * queries) and the read paths (one claim).
 */
export interface BoundRevision {
  claim_id: string;
  binding_id: number;
  revision_id: string;
  role: BindingRole;
  relation: Relation;
  evidence_id: string;
  kind: EvidenceKind;
  independence_group: string | null;
  source_ref: string;
  state: LifecycleState;
  tenant: string;
  classification: Classification;
  effective_from: string | null;
  valid_until: string | null;
  applies_to: string;
}

export interface StoredProjection {
  claim_id: string;
  generation: number;
  projection: SupportProjection;
  reasons: string;
  version: number;
  fence_watermark: number;
  computed_at: string;
  job_id: number | null;
}

export interface ClaimProjectionState {
  claimId: string;
  generation: number;
  scope: string[];
  policy: ClaimPolicy;
  unresolved: boolean;
  bindings: BoundRevision[];
  /** Status inputs other than usability, per bound revision: original sources and probable copies, for everyone. */
  statusInputs: Map<string, IndependenceInputs>;
  /** Fences on each bound revision's PROV ancestors (other lineages). */
  ancestors: Map<string, FenceRow[]>;
  /** Fences directly on each bound revision. */
  direct: Map<string, FenceRow[]>;
  stored: StoredProjection | null;
  /** The earliest fence committed after the stored projection that touches a binding it predates. */
  pending: FenceRow | null;
}

/** The projection is a property of the claim, not of who looks: usability and tracing here ignore clearance. */
// Stryker disable next-line StringLiteral: its id and name are never shown or stored; only its role, tenants and clearance are read
const EVERYONE: Actor = { actorId: 'support-projection', displayName: 'support projection', role: 'admin', tenants: ['*'], maxClassification: 'restricted' };

const json = (ids: readonly string[]) => JSON.stringify(ids);

export function loadProjectionStates(db: CaseDb, claimIds: readonly string[]): Map<string, ClaimProjectionState> {
  const out = new Map<string, ClaimProjectionState>();
  if (claimIds.length === 0) return out;
  const claims = db
    .prepare('SELECT claim_id, generation, scope, policy, unresolved_reason FROM claim WHERE claim_id IN (SELECT value FROM json_each(?))')
    .all(json(claimIds)) as Pick<ClaimRow, 'claim_id' | 'generation' | 'scope' | 'policy' | 'unresolved_reason'>[];
  const bound = db
    .prepare(
      `SELECT b.claim_id, b.binding_id, b.revision_id, b.role, b.relation, r.evidence_id, r.kind, r.independence_group, r.source_ref,
         r.state, r.tenant, r.classification, r.effective_from, r.valid_until, r.applies_to
       FROM claim c JOIN claim_binding b ON b.claim_id = c.claim_id AND b.generation = c.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE c.claim_id IN (SELECT value FROM json_each(?)) ORDER BY b.binding_id`,
    )
    .all(json(claimIds)) as BoundRevision[];
  const stored = db
    .prepare('SELECT * FROM support_projection WHERE claim_id IN (SELECT value FROM json_each(?))')
    .all(json(claimIds)) as StoredProjection[];
  const revisionIds = [...new Set(bound.map((b) => b.revision_id))];
  const ancestors = ancestorFences(db, revisionIds);
  const direct = new Map<string, FenceRow[]>();
  for (const f of fencesOn(db, revisionIds)) direct.set(f.revision_id, [...(direct.get(f.revision_id) ?? []), f]);
  const storedBy = new Map(stored.map((s) => [s.claim_id, s]));
  const statusInputs = independenceInputs({ db, actor: EVERYONE }, [...new Map(bound.map((b) => [b.revision_id, b])).values()]);
  for (const c of claims) {
    const state: ClaimProjectionState = {
      claimId: c.claim_id,
      generation: c.generation,
      scope: scopeOf(c),
      policy: policyOf(c),
      unresolved: c.unresolved_reason !== null,
      bindings: [],
      statusInputs,
      ancestors,
      direct,
      stored: storedBy.get(c.claim_id) ?? null,
      pending: null,
    };
    out.set(c.claim_id, state);
  }
  for (const b of bound) out.get(b.claim_id)?.bindings.push(b);
  for (const s of out.values()) s.pending = pendingFence(s);
  return out;
}

/** loadProjectionStates for any number of claims, a page of 500 per batch of queries. */
export function loadProjectionStatesInPages(db: CaseDb, claimIds: readonly string[]): Map<string, ClaimProjectionState> {
  const out = new Map<string, ClaimProjectionState>();
  for (let i = 0; i < claimIds.length; i += 500) for (const [id, s] of loadProjectionStates(db, claimIds.slice(i, i + 500))) out.set(id, s);
  return out;
}

function pendingFence(s: ClaimProjectionState): FenceRow | null {
  const watermark = s.stored?.fence_watermark ?? 0;
  let first: FenceRow | null = null;
  for (const b of s.bindings) {
    for (const f of [...(s.direct.get(b.revision_id) ?? []), ...(s.ancestors.get(b.revision_id) ?? [])]) {
      // A binding made after the fence was made knowingly: the live projection judges it.
      const fenced = f.fence_id > watermark && b.binding_id <= f.binding_watermark;
      // Stryker disable next-line EqualityOperator: equivalent; a fence with the same id is the same fence, reached through another binding or ancestor
      if (fenced && (!first || f.fence_id < first.fence_id)) first = f;
    }
  }
  return first;
}

/** The claim as it was before some fences: revisions back in their earlier states, staleness from those fence trees ignored. */
export interface Counterfactual {
  states: ReadonlyMap<string, LifecycleState>;
  ignoreRoots: ReadonlySet<number>;
  /** Revisions taken as stale besides those the fences make stale (the what-if: derived from a revision pretended revoked). */
  alsoStale?: ReadonlySet<string>;
}

const rootOf = (f: FenceRow): number => f.root_fence_id ?? f.fence_id;

/**
 * What the claim looked like before any fence that came after the bindings it has now: a claim
 * that was not ELIGIBLE then did not *leave* ELIGIBLE, so it opens no remediation. Used when the
 * worker reaches a claim it never computed; several fences may have committed before it got there.
 */
export function beforeFences(s: ClaimProjectionState): Counterfactual {
  const states = new Map<string, LifecycleState>();
  const ignoreRoots = new Set<number>();
  for (const b of s.bindings) {
    // The state the first fence since the binding found. A DERIVED fence found none (from_state is
    // null): the derived revision kept its state, and its staleness is the ancestor's fence, below.
    const direct = (s.direct.get(b.revision_id) ?? []).filter((f) => b.binding_id <= f.binding_watermark && f.from_state !== null);
    if (direct[0]) states.set(b.revision_id, direct[0].from_state!);
    for (const f of s.ancestors.get(b.revision_id) ?? []) if (b.binding_id <= f.binding_watermark) ignoreRoots.add(rootOf(f));
  }
  return { states, ignoreRoots };
}

/**
 * The projection a fence moves the claim away from: the stored one, or, for a claim the worker
 * never computed, the claim as it was before the fences that reached it. A decided claim that
 * leaves ELIGIBLE from here opens a remediation (see opensRemediation).
 */
export function projectionBefore(s: ClaimProjectionState, now: string): SupportProjection {
  return s.stored?.projection ?? liveProjection(s, now, undefined, beforeFences(s)).projection;
}

/** Bound revisions that are stale (derived from fenced evidence), optionally ignoring some fence trees. */
export function staleRevisions(s: ClaimProjectionState, ignoreRoots?: ReadonlySet<number>): Set<string> {
  const stale = new Set<string>();
  for (const b of s.bindings) {
    const fences = (s.ancestors.get(b.revision_id) ?? []).filter((f) => !ignoreRoots?.has(rootOf(f)));
    if (fences.length > 0) stale.add(b.revision_id);
  }
  return stale;
}

/**
 * The live projection: what the worker would store now. `name` redacts revision names for a
 * viewer. The claim's status is derived from the same bindings and usability (for everyone), and
 * an INSUFFICIENT status keeps the projection from ELIGIBLE: see supportProjection.
 */
export function liveProjection(s: ClaimProjectionState, now: string, name?: NameRevision, counterfactual?: Counterfactual): ProjectionResult {
  const stale = staleRevisions(s, counterfactual?.ignoreRoots);
  for (const ref of counterfactual?.alsoStale ?? []) stale.add(ref);
  const judged = s.bindings.map((b) => ({
    b,
    u: usability(usabilityInput({ ...b, state: counterfactual?.states.get(b.revision_id) ?? b.state }), { clearance: EVERYONE, now, scope: s.scope }),
  }));
  const status = deriveClaimStatus({
    bindings: judged.map(({ b, u }) => ({
      revisionRef: b.revision_id,
      relation: b.relation,
      role: b.role,
      kind: b.kind,
      usable: u.usable && !stale.has(b.revision_id),
      independenceGroup: b.independence_group,
      ...s.statusInputs.get(b.revision_id)!,
    })),
    policy: s.policy,
    unresolvedByReviewer: s.unresolved,
  });
  return supportProjection(
    judged.map(({ b, u }) => ({ revisionRef: b.revision_id, role: b.role, usable: u.usable, unusableBecause: u.reasons.map((r) => r.message), stale: stale.has(b.revision_id) })),
    name,
    status.shortfall,
  );
}

/** Names visible revisions and hides the rest, for reasons shown to `ctx.actor`. */
export function revisionNamer(ctx: ServiceContext, refs: readonly string[]): NameRevision {
  const visible = visibleRefs(ctx.db, ctx.actor, refs);
  return (ref) => (visible.has(ref) ? ref : 'a revision outside your clearance');
}

export interface ProjectionView {
  projection: SupportProjection;
  pendingRevalidation: boolean;
  projectionReasons: string[];
  /** The stored projection's compare-and-swap version (0 before the worker first computed it). */
  projectionVersion: number;
}

/** What a read path shows: PENDING_REVALIDATION while a committed fence is unconverged, else the live projection. */
export function projectionView(ctx: ServiceContext, s: ClaimProjectionState): ProjectionView {
  const name = revisionNamer(ctx, [...s.bindings.map((b) => b.revision_id), ...(s.pending ? [s.pending.revision_id] : [])]);
  const version = s.stored?.version ?? 0;
  if (s.pending) {
    return {
      projection: 'PENDING_REVALIDATION',
      pendingRevalidation: true,
      projectionReasons: [pendingReason(name(s.pending.revision_id), s.pending.cause)],
      projectionVersion: version,
    };
  }
  const live = liveProjection(s, ctx.now(), name);
  return { projection: live.projection, pendingRevalidation: false, projectionReasons: live.reasons, projectionVersion: version };
}

/** The read path for one claim (claim:get, claim:list, remediation views). */
export function claimProjection(ctx: ServiceContext, claimId: string): ProjectionView {
  const s = loadProjectionStates(ctx.db, [claimId]).get(claimId);
  if (!s) throw new Error(`claimProjection: claim ${claimId} does not exist`);
  return projectionView(ctx, s);
}

/** What a decision on the claim's current generation shows: the claim's projection and pending mark. */
export function decisionProjection(ctx: ServiceContext, claimId: string): { projection: ProjectionView['projection']; pendingRevalidation: boolean } {
  const { projection, pendingRevalidation } = claimProjection(ctx, claimId);
  return { projection, pendingRevalidation };
}

/** Stale (derived-from-fenced) revisions among `revisionIds`: claim status does not count them. */
export function staleAmong(db: CaseDb, revisionIds: readonly string[]): Set<string> {
  return new Set(ancestorFences(db, revisionIds).keys());
}

export const rootFenceOf = rootOf;

/**
 * Bindings of a claim's earlier generations whose revision the actor may see: history of what the
 * claim rested on before a remediation moved it (§3.5: nothing is deleted, old bindings stay).
 */
export function bindingHistory(ctx: ServiceContext, claimId: string, generation: number): BindingRow[] {
  const rows = ctx.db
    .prepare('SELECT * FROM claim_binding WHERE claim_id = ? AND generation < ? ORDER BY generation DESC, binding_id')
    .all(claimId, generation) as BindingRow[];
  const visible = visibleRefs(ctx.db, ctx.actor, [...new Set(rows.map((r) => r.revision_id))]);
  return rows.filter((r) => visible.has(r.revision_id));
}
