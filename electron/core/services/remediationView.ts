import type { Classification, LifecycleState } from '../../../shared/domain/enums';
import { fourEyesRefusal, type FourEyesParty } from '../../../shared/domain/fourEyes';
import { usability } from '../../../shared/domain/usable';
import type { RemediationView } from '../../../shared/ipc/channels/remediation';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { CaseDb } from '../store/caseFile';
import { aclFilter } from '../store/acl';
import type { BindingRow as FullBindingRow } from '../store/bindingRows';
import { usabilityInput } from '../store/evidenceRows';
import { loadVisibleClaim } from '../store/claimRows';
import { visibleRefs } from './claimBasis';
import { ancestorFences, type FenceRow } from '../store/fenceRows';
import { loadProjectionStates, projectionView, rootFenceOf, type ClaimProjectionState } from './projection';
import { affectedBindings, remediationById, type AffectedBinding, type RemediationRow } from './remediationRows';
import type { DecisionRow } from '../store/reviewRows';
import { treeProgress } from './revocationStatus';

/**
 * Reads of the remediation queue. Everything here is filtered to the actor's clearance: the claim
 * must be visible, and revisions (causes, affected bindings, successors) outside the clearance are
 * counted, never named.
 */
interface RevisionBrief {
  revision_id: string;
  evidence_id: string;
  revision: number;
  state: LifecycleState;
  title: string;
}

const brief = (db: CaseDb, ids: readonly string[]): Map<string, RevisionBrief> =>
  new Map(
    (
      db
        .prepare(
          `SELECT r.revision_id, r.evidence_id, r.revision, r.state, l.title FROM evidence_revision r
           JOIN evidence_lineage l ON l.evidence_id = r.evidence_id WHERE r.revision_id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(ids)) as RevisionBrief[]
    ).map((r) => [r.revision_id, r]),
  );

/** Later revisions of `evidenceId` the actor may see, with whether each could carry the claim. */
export function successorCandidates(ctx: ServiceContext, evidenceId: string, after: number, scope: readonly string[]) {
  const acl = aclFilter(ctx.actor, 'r');
  const rows = ctx.db
    .prepare(
      `SELECT r.revision_id, r.revision, r.state, r.tenant, r.classification, r.effective_from, r.valid_until, r.applies_to
       FROM evidence_revision r WHERE r.evidence_id = ? AND r.revision > ? AND ${acl.sql} ORDER BY r.revision`,
    )
    .all(evidenceId, after, ...acl.params) as {
    revision_id: string;
    revision: number;
    state: LifecycleState;
    tenant: string;
    classification: Classification;
    effective_from: string | null;
    valid_until: string | null;
    applies_to: string;
  }[];
  const stale = ancestorFences(ctx.db, rows.map((r) => r.revision_id));
  return rows.map((r) => {
    const u = usability(usabilityInput(r, stale.has(r.revision_id)), { clearance: ctx.actor, now: ctx.now(), scope });
    return { revisionId: r.revision_id, revision: r.revision, state: r.state, usable: u.usable, reasons: u.reasons.map((x) => x.message) };
  });
}

/** The fences a remediation answers to: the one that opened it and those behind its affected bindings. */
export function causeFences(db: CaseDb, row: RemediationRow, affected: readonly AffectedBinding[]): FenceRow[] {
  const ids = [...new Set([row.fence_id, ...affected.map((a) => a.fenceId)])];
  const fences = db.prepare('SELECT * FROM revocation_fence WHERE fence_id IN (SELECT value FROM json_each(?)) ORDER BY fence_id').all(JSON.stringify(ids)) as FenceRow[];
  // A DERIVED fence is attributed to its root's revoker already; keep the roots visible as causes too.
  const roots = fences.filter((f) => f.cause === 'DERIVED').map(rootFenceOf);
  const extra = roots.length
    ? (db.prepare('SELECT * FROM revocation_fence WHERE fence_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(roots)) as FenceRow[])
    : [];
  const all = new Map([...fences, ...extra].map((f) => [f.fence_id, f]));
  return [...all.values()].sort((a, b) => a.fence_id - b.fence_id);
}

/** Whoever fenced a cause of the remediation, as a four-eyes party. */
export const revokerOf = (f: FenceRow): FourEyesParty => ({ role: 'revoker', actorId: f.actor, ref: String(f.fence_id) });

/** Why the actor may not resolve it, or null. Four eyes: whoever revoked may not resolve alone. */
export function cannotResolve(ctx: ServiceContext, row: RemediationRow, causes: readonly FenceRow[], hiddenBindings: number): string | null {
  if (row.status !== 'OPEN') return `it was resolved (${row.resolution}) by ${row.resolved_by}`;
  if (ctx.actor.role === 'analyst') return `resolving a remediation needs a reviewer or admin; ${ctx.actor.actorId} is an analyst`;
  const refusal = fourEyesRefusal(ctx.actor.actorId, 'resolve the remediation', causes.map(revokerOf));
  if (refusal) return refusal;
  if (hiddenBindings > 0) return `${hiddenBindings} bound revision${hiddenBindings === 1 ? ' is' : 's are'} outside your clearance; resolving needs a reviewer cleared for all of the claim's evidence`;
  return null;
}

export interface LoadedRemediation {
  row: RemediationRow;
  claim: { claim_id: string; statement: string; generation: number; author: string; scope: string[] };
  state: ClaimProjectionState;
  affected: AffectedBinding[];
  causes: FenceRow[];
  decision: DecisionRow;
}

/** Loads a remediation whose claim the actor may see; a hidden one answers like a missing one. */
export function loadRemediation(ctx: ServiceContext, remediationId: number, channel: string): LoadedRemediation {
  const missing = () => notFound(`${channel}: no remediation ${remediationId} is visible to you`);
  const row = remediationById(ctx.db, remediationId);
  if (!row) throw missing();
  let claim;
  try {
    claim = loadVisibleClaim(ctx, row.claim_id, channel);
  } catch {
    throw missing();
  }
  const state = loadProjectionStates(ctx.db, [row.claim_id]).get(row.claim_id)!;
  // An open remediation is about what revocation took away now; a resolved one about what it was.
  const affected = row.status === 'OPEN' ? affectedBindings(state).map(({ binding: _b, fence: _f, ...a }) => a) : (JSON.parse(row.affected) as AffectedBinding[]);
  const decision = ctx.db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(row.decision_id) as DecisionRow;
  const scope = (ctx.db.prepare('SELECT scope FROM claim WHERE claim_id = ?').get(row.claim_id) as { scope: string }).scope;
  return {
    row,
    claim: { claim_id: claim.claim_id, statement: claim.statement, generation: claim.generation, author: claim.author, scope: JSON.parse(scope) as string[] },
    state,
    affected,
    causes: causeFences(ctx.db, row, affected),
    decision,
  };
}

type BindingRow = Pick<FullBindingRow, 'binding_id' | 'generation' | 'revision_id' | 'role' | 'relation'>;

export function toRemediationView(ctx: ServiceContext, r: LoadedRemediation): RemediationView {
  const { db } = ctx;
  const generations = [...new Set([r.row.generation, r.claim.generation])];
  const bindings = db
    .prepare(
      `SELECT binding_id, generation, revision_id, role, relation FROM claim_binding
       WHERE claim_id = ? AND generation IN (SELECT value FROM json_each(?)) ORDER BY generation DESC, binding_id`,
    )
    .all(r.row.claim_id, JSON.stringify(generations)) as BindingRow[];
  const refs = [...new Set([...bindings.map((b) => b.revision_id), ...r.causes.map((f) => f.revision_id), ...r.affected.map((a) => a.revisionId)])];
  const visible = visibleRefs(db, ctx.actor, refs);
  const revs = brief(db, refs);
  const affectedIds = new Set(r.affected.map((a) => a.bindingId));
  const shownBindings = bindings.filter((b) => visible.has(b.revision_id));
  const currentHidden = bindings.filter((b) => b.generation === r.claim.generation && !visible.has(b.revision_id)).length;
  const shownCauses = r.causes.filter((f) => visible.has(f.revision_id));
  const shownAffected = r.affected.filter((a) => visible.has(a.revisionId));
  const pv = projectionView(ctx, r.state);
  const tree = treeProgress(db, rootFenceOf(r.causes.find((f) => f.fence_id === r.row.fence_id) ?? ({ fence_id: r.row.fence_id, root_fence_id: null } as FenceRow)));
  const why = cannotResolve(ctx, r.row, r.causes, currentHidden);
  return {
    remediationId: r.row.remediation_id,
    claimId: r.row.claim_id,
    statement: r.claim.statement,
    status: r.row.status,
    owner: r.row.owner,
    openedAt: r.row.opened_at,
    openedOnGeneration: r.row.generation,
    currentGeneration: r.claim.generation,
    decision: { decisionId: r.decision.decision_id, verdict: r.decision.verdict, rationale: r.decision.rationale, proposedBy: r.decision.proposed_by, decidedBy: r.decision.decided_by },
    openedProjection: r.row.projection,
    projection: pv.projection,
    pendingRevalidation: pv.pendingRevalidation,
    projectionReasons: pv.projectionReasons,
    projectionVersion: pv.projectionVersion,
    causes: shownCauses.map((f) => ({ fenceId: f.fence_id, revisionId: f.revision_id, cause: f.cause, reason: f.reason, actor: f.actor, fencedAt: f.fenced_at, supportingRef: f.supporting_ref })),
    hiddenCauses: r.causes.length - shownCauses.length,
    affected: shownAffected.map((a) => {
      const rev = revs.get(a.revisionId)!;
      return {
        ...a,
        title: rev.title,
        state: rev.state,
        successors: r.row.status === 'OPEN' ? successorCandidates(ctx, rev.evidence_id, rev.revision, r.claim.scope) : [],
      };
    }),
    hiddenAffected: r.affected.length - shownAffected.length,
    bindings: shownBindings.map((b) => ({
      bindingId: b.binding_id,
      generation: b.generation,
      revisionId: b.revision_id,
      role: b.role,
      relation: b.relation,
      state: revs.get(b.revision_id)!.state,
      affected: affectedIds.has(b.binding_id),
      historical: b.generation !== r.claim.generation,
    })),
    hiddenBindings: currentHidden,
    convergence: { openJobs: tree.openJobs, converged: tree.converged, total: tree.total },
    canResolve: why === null,
    cannotResolveBecause: why,
    resolution: r.row.resolution,
    resolvedBy: r.row.resolved_by,
    resolvedAt: r.row.resolved_at,
    resolutionReason: r.row.resolution_reason,
    newGeneration: r.row.new_generation,
    carriedDecisionId: r.row.carried_decision_id,
  };
}

export function getRemediation(ctx: ServiceContext, remediationId: number): RemediationView {
  return toRemediationView(ctx, loadRemediation(ctx, remediationId, 'remediation:get'));
}

export function listRemediations(ctx: ServiceContext, status?: 'OPEN' | 'RESOLVED'): { items: RemediationView[] } {
  const acl = aclFilter(ctx.actor, 'c');
  const rows = ctx.db
    .prepare(
      `SELECT m.remediation_id FROM remediation m JOIN claim c ON c.claim_id = m.claim_id
       WHERE ${acl.sql} ${status ? 'AND m.status = ?' : ''} ORDER BY m.status = 'OPEN' DESC, m.remediation_id DESC`,
    )
    .all(...acl.params, ...(status ? [status] : [])) as { remediation_id: number }[];
  return { items: rows.map((r) => getRemediation(ctx, r.remediation_id)) };
}
