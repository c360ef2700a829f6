import { randomUUID } from 'node:crypto';
import { readCaseMeta } from './caseMeta';
import { scopedName } from './scopedNames';
import { ClaimPolicySchema, deriveClaimStatus, type ClaimPolicy, type StatusBinding } from '../../../shared/domain/claimStatus';
import type { BindingView, ClaimSummary } from '../../../shared/domain/schemas';
import { unresolvedRefusal } from '../../../shared/domain/quorum';
import { usability, type Usability } from '../../../shared/domain/usable';
import type { ClaimDetail } from '../../../shared/ipc/channels/claims';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { conflict, forbidden } from '../errors';
import { aclFilter, canSee } from '../store/acl';
import { toBindingView, type BindingRow } from '../store/bindingRows';
import { loadVisibleClaim, policyOf, visibleClaims, writeGeneration, type ClaimRow } from '../store/claimRows';
import { loadVisibleRevision, usabilityInput, type RevisionRow } from '../store/evidenceRows';
import { statusBindings } from './claimStatusInput';
import { quorumView } from './quorum';
import { bindingHistory, claimProjection, loadProjectionStatesInPages, projectionView, staleAmong, type ProjectionView } from './projection';
import { writeTransaction } from '../store/caseFile';
import { perClaim, type ClaimSet } from './claimMemo';
import { generationDigest, maxBindingId, openRemediationClaims } from './remediationRows';

/** Bindings of the claim's current generation whose evidence the actor may see, with the evidence. */
function currentBindings(ctx: ServiceContext, claim: ClaimRow): { binding: BindingRow; revision: RevisionRow }[] {
  const acl = aclFilter(ctx.actor, 'r');
  const rows = ctx.db
    .prepare(
      `SELECT b.*, r.revision_id AS r_revision_id, r.state, r.kind, r.tenant, r.classification, r.effective_from,
         r.valid_until, r.applies_to, r.independence_group, r.source_ref
       FROM claim_binding b JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE b.claim_id = ? AND b.generation = ? AND ${acl.sql}
       ORDER BY b.binding_id`,
    )
    .all(claim.claim_id, claim.generation, ...acl.params) as (BindingRow & RevisionRow)[];
  return rows.map((r) => ({ binding: r, revision: r }));
}

/** What a claim's status is derived from, as `ctx.actor` sees it (DESIGN §3.3). */
export interface ClaimStatusBasis {
  bindings: { binding: BindingRow; revision: RevisionRow }[];
  inputs: StatusBinding[];
  policy: ClaimPolicy;
  unresolved: boolean;
}

/**
 * Whether each revision is usable in the claim's context, as `ctx.actor` sees it now: the
 * usability conjunction (DESIGN §3.1) with staleness from fenced PROV ancestors (§3.5). What a
 * claim's status counts and whether a computation on the claim still holds both ask here.
 */
export function usableInClaim(ctx: ServiceContext, claim: Pick<ClaimRow, 'scope'>, revisions: readonly RevisionRow[]): Map<string, Usability> {
  const scope = JSON.parse(claim.scope) as string[];
  // Derived from revoked or superseded evidence (PROV): not usable until revalidated (§3.5).
  const stale = staleAmong(ctx.db, revisions.map((r) => r.revision_id));
  return new Map(revisions.map((r) => [r.revision_id, usability(usabilityInput(r, stale.has(r.revision_id)), { clearance: ctx.actor, now: ctx.now(), scope })]));
}

export function claimStatusBasis(ctx: ServiceContext, claim: ClaimRow): ClaimStatusBasis {
  const bindings = currentBindings(ctx, claim);
  const usable = usableInClaim(ctx, claim, bindings.map(({ revision }) => revision));
  const inputs = statusBindings(
    ctx,
    bindings.map(({ binding, revision }) => ({
      ...revision,
      relation: binding.relation,
      role: binding.role,
      usable: usable.get(binding.revision_id)!.usable,
    })),
  );
  return { bindings, inputs, policy: JSON.parse(claim.policy) as ClaimPolicy, unresolved: claim.unresolved_reason !== null };
}

const NOTHING_LOST: ReadonlySet<string> = new Set();

/**
 * The claim's status from its basis; with `lost`, as if those bound revisions were not usable (the
 * what-if: a revoked revision, or one derived from it, is unusable; nothing else changes).
 */
export function deriveStatusFrom(basis: ClaimStatusBasis, lost: ReadonlySet<string> = NOTHING_LOST) {
  return deriveClaimStatus({
    bindings: lost.size === 0 ? basis.inputs : basis.inputs.map((b) => (lost.has(b.revisionRef) ? { ...b, usable: false } : b)),
    policy: basis.policy,
    unresolvedByReviewer: basis.unresolved,
  });
}

function statusOf(ctx: ServiceContext, claim: ClaimRow) {
  const basis = claimStatusBasis(ctx, claim);
  return { derived: deriveStatusFrom(basis), bindings: basis.bindings };
}

function toSummaryWith(ctx: ServiceContext, claim: ClaimRow, { derived, bindings }: ReturnType<typeof statusOf>, projection: ProjectionView): ClaimSummary {
  return {
    claimId: claim.claim_id,
    statement: claim.statement,
    generation: claim.generation,
    status: derived.status,
    author: claim.author,
    support: derived.support,
    partialSupport: derived.partial,
    refute: derived.refute,
    // Every read of a claim checks revocation fences: a dependent is never shown as current (§3.5).
    ...projection,
    missingKinds: derived.missingKinds,
    bindings: bindings.map(({ binding }) => toBindingView(binding)),
  };
}

/** Every visible claim's summary, kept between reads until a change touches the claim (claimMemo.ts). */
export function listClaims(ctx: ServiceContext): ClaimSummary[] {
  return claimSummaries(ctx, visibleClaims(ctx));
}

/** The summaries of the claims of `set` (visible ones only), kept between reads as listClaims's are. */
export function claimSummaries(ctx: ServiceContext, set: ClaimSet): ClaimSummary[] {
  return perClaim(ctx, 'summary', set, (claims) => {
    const states = loadProjectionStatesInPages(ctx.db, claims.map((c) => c.claim_id));
    return claims.map((c) => toSummaryWith(ctx, c, statusOf(ctx, c), projectionView(ctx, states.get(c.claim_id)!)));
  }).values;
}

export function getClaim(ctx: ServiceContext, claimId: string): ClaimDetail {
  const claim = loadVisibleClaim(ctx, claimId, 'claim:get');
  const status = statusOf(ctx, claim);
  const { derived } = status;
  return {
    ...toSummaryWith(ctx, claim, status, claimProjection(ctx, claim.claim_id)),
    scope: JSON.parse(claim.scope) as string[],
    policy: ClaimPolicySchema.parse(JSON.parse(claim.policy)),
    tenant: claim.tenant,
    classification: claim.classification,
    unresolvedReason: claim.unresolved_reason,
    reasons: derived.reasons,
    independence: derived.supportGroups,
    historicalBindings: bindingHistory(ctx, claim.claim_id, claim.generation).map((b) => ({ ...toBindingView(b), historical: true as const })),
  };
}

export function createClaim(ctx: ServiceContext, req: ParsedRequestOf<'claim:create'>): ClaimDetail {
  if (!canSee(ctx.actor, req)) {
    throw forbidden(`claim:create: your clearance does not cover tenant ${req.tenant} at ${req.classification}`);
  }
  // A chosen name may come back qualified with its scope, so that taken-but-hidden and free answer alike.
  const claimId = req.claimId ? scopedName(req.claimId, req, ctx.actor, readCaseMeta(ctx.db).homeScope) : `cl-${randomUUID().slice(0, 8)}`;
  writeTransaction(ctx.db, () => {
    if (ctx.db.prepare('SELECT 1 FROM claim WHERE claim_id = ?').get(claimId)) {
      throw conflict(`claim:create: claim ${claimId} already exists`);
    }
    ctx.db
      .prepare(
        `INSERT INTO claim (claim_id, statement, scope, policy, tenant, classification, author, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(claimId, req.statement, JSON.stringify(req.scope), JSON.stringify(req.policy), req.tenant, req.classification, ctx.actor.actorId, ctx.now());
    appendReceipt(ctx, {
      action: 'claim:create',
      targets: [`claim:${claimId}`],
      body: { claimId, statement: req.statement, scope: req.scope, policy: req.policy, tenant: req.tenant, classification: req.classification },
      post: { claimId, generation: 1 },
    });
  });
  return getClaim(ctx, claimId);
}

/**
 * While a remediation of a claim is open its bindings hold still: the remediation is where a
 * revoked item's bindings are repaired, and a reviewer who retains the decision re-approves exactly
 * the bindings they were shown. (A binding added meanwhile would be carried into the retained
 * decision's basis without anyone having reviewed it.)
 */
function assertNoOpenRemediation(ctx: ServiceContext, claimId: string, channel: string): void {
  if (openRemediationClaims(ctx.db, [claimId]).size > 0) {
    throw conflict(`${channel}: claim ${claimId} has an open remediation; resolve it (retain, re-review or withdraw) before changing its bindings`);
  }
}

export function bindEvidence(ctx: ServiceContext, req: ParsedRequestOf<'claim:bind'>): BindingView {
  return writeTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, 'claim:bind');
    loadVisibleRevision(ctx.db, ctx.actor, req.revisionId, 'claim:bind');
    assertNoOpenRemediation(ctx, claim.claim_id, 'claim:bind');
    const existing = ctx.db
      .prepare('SELECT 1 FROM claim_binding WHERE claim_id = ? AND generation = ? AND revision_id = ?')
      .get(claim.claim_id, claim.generation, req.revisionId);
    if (existing) {
      throw conflict(`claim:bind: ${req.revisionId} is already bound to ${claim.claim_id} (generation ${claim.generation})`);
    }
    const info = ctx.db
      .prepare(
        `INSERT INTO claim_binding (claim_id, generation, revision_id, relation, role, rationale, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(claim.claim_id, claim.generation, req.revisionId, req.relation, req.role, req.rationale, ctx.actor.actorId, ctx.now());
    const binding = ctx.db.prepare('SELECT * FROM claim_binding WHERE binding_id = ?').get(info.lastInsertRowid) as BindingRow;
    appendReceipt(ctx, {
      action: 'claim:bind',
      targets: [`claim:${claim.claim_id}`, `revision:${req.revisionId}`],
      body: { claimId: claim.claim_id, generation: claim.generation, revisionId: req.revisionId, relation: req.relation, role: req.role, rationale: req.rationale },
      post: { bindingId: binding.binding_id, claimId: claim.claim_id, generation: claim.generation, revisionId: req.revisionId, relation: req.relation, role: req.role },
    });
    return toBindingView(binding);
  });
}

/**
 * claim:unbind: takes an evidence revision out of a claim's basis. A generation's bindings are
 * never edited, so the claim moves to a new generation holding every other binding (those outside
 * the reviewer's clearance included, unnamed); decisions fingerprinted on the old generation go
 * stale and must be made again. Refused while a remediation of the claim is open (see assertNoOpenRemediation).
 */
export function unbindEvidence(ctx: ServiceContext, req: ParsedRequestOf<'claim:unbind'>): ClaimDetail {
  const channel = 'claim:unbind';
  writeTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, channel);
    loadVisibleRevision(ctx.db, ctx.actor, req.revisionId, channel);
    const bindings = ctx.db.prepare('SELECT * FROM claim_binding WHERE claim_id = ? AND generation = ? ORDER BY binding_id').all(claim.claim_id, claim.generation) as BindingRow[];
    const gone = bindings.find((b) => b.revision_id === req.revisionId);
    if (!gone) throw conflict(`${channel}: ${req.revisionId} is not bound to ${claim.claim_id} (generation ${claim.generation}); nothing to unbind`);
    assertNoOpenRemediation(ctx, claim.claim_id, channel);
    const kept = bindings.filter((b) => b !== gone).map((b) => ({ revisionId: b.revision_id, relation: b.relation, role: b.role, rationale: b.rationale }));
    const generation = writeGeneration(ctx, channel, claim.claim_id, claim.generation, kept);
    const bindingWatermark = maxBindingId(ctx.db, claim.claim_id, generation);
    appendReceipt(ctx, {
      action: channel,
      targets: [`claim:${claim.claim_id}`, `revision:${req.revisionId}`],
      body: { claimId: claim.claim_id, fromGeneration: claim.generation, toGeneration: generation, bindingWatermark, revisionId: req.revisionId, relation: gone.relation, role: gone.role, reason: req.reason, carriedBindings: kept.length },
      pre: { claimId: claim.claim_id, generation: claim.generation },
      post: { claimId: claim.claim_id, generation },
      artifacts: { bindings: generationDigest(ctx.db, claim.claim_id, generation, bindingWatermark) },
    });
  });
  return getClaim(ctx, req.claimId);
}

/**
 * A reviewer records that a claim cannot be decided (DESIGN §3.3: UNRESOLVED is a reviewer's call,
 * never derived). Tool-like: the role is checked independently of anything the evidence says.
 */
export function markUnresolved(ctx: ServiceContext, req: ParsedRequestOf<'claim:markUnresolved'>): ClaimDetail {
  return setUnresolved(ctx, 'claim:markUnresolved', req.claimId, req.reason, true);
}

export function clearUnresolved(ctx: ServiceContext, req: ParsedRequestOf<'claim:clearUnresolved'>): ClaimDetail {
  return setUnresolved(ctx, 'claim:clearUnresolved', req.claimId, req.reason, false);
}

function setUnresolved(ctx: ServiceContext, channel: string, claimId: string, reason: string, mark: boolean): ClaimDetail {
  writeTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, claimId, channel);
    if (ctx.actor.role === 'analyst') {
      throw forbidden(`${channel}: only a reviewer or admin may change whether a claim is UNRESOLVED; ${ctx.actor.actorId} is an analyst`);
    }
    const quorumSize = policyOf(claim).quorumSize;
    if (mark && quorumSize !== null) {
      const q = quorumView(ctx, claim, quorumSize);
      const refusal = unresolvedRefusal(q, q.votes, quorumSize);
      if (refusal) throw conflict(`${channel}: claim ${claimId} cannot be recorded UNRESOLVED: ${refusal}`);
    }
    if (mark && claim.unresolved_reason !== null) {
      throw conflict(`${channel}: ${claimId} is already UNRESOLVED (${claim.unresolved_reason}); clear it first to record a new reason`);
    }
    if (!mark && claim.unresolved_reason === null) {
      throw conflict(`${channel}: ${claimId} is not marked UNRESOLVED; nothing to clear`);
    }
    const next = mark ? reason : null;
    const changed = ctx.db
      .prepare('UPDATE claim SET unresolved_reason = ? WHERE claim_id = ? AND unresolved_reason IS ?')
      .run(next, claimId, claim.unresolved_reason).changes;
    // The claim was read in this same write transaction: the compare-and-swap cannot lose here, and stays so the mark is never written over.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: unreachable inside the write transaction (see above)
    if (changed !== 1) throw conflict(`${channel}: ${claimId} changed while you were deciding; reload and try again`);
    appendReceipt(ctx, {
      action: channel,
      targets: [`claim:${claimId}`],
      body: { claimId, generation: claim.generation, reason, ...(mark ? {} : { clearedReason: claim.unresolved_reason }) },
      pre: { claimId, generation: claim.generation, unresolvedReason: claim.unresolved_reason },
      post: { claimId, generation: claim.generation, unresolvedReason: next },
    });
  });
  return getClaim(ctx, claimId);
}
