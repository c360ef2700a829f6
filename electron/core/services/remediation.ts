import { randomUUID } from 'node:crypto';
import { canonicalJson } from '../../../shared/domain/canonical';
import { fourEyesRefusal } from '../../../shared/domain/fourEyes';
import type { RemediationView } from '../../../shared/ipc/channels/remediation';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, forbidden } from '../errors';
import { writeTransaction } from '../store/caseFile';
import { writeGeneration, type GenerationBinding } from '../store/claimRows';
import { assertRole, assertSeesAll, claimBasis, decisionFingerprint } from './claimBasis';
import { loadVisibleRevision } from '../store/evidenceRows';
import { maxFenceId } from '../store/fenceRows';
import { liveProjection, loadProjectionStates } from './projection';
import { generationDigest, maxBindingId, type AffectedBinding } from './remediationRows';
import { decisionState, type DecisionRow } from '../store/reviewRows';
import { cannotResolve, loadRemediation, successorCandidates, toRemediationView, type LoadedRemediation } from './remediationView';

/**
 * The three ways out of a remediation (DESIGN §3.6). Each runs in one transaction with one receipt;
 * every check runs before the first write, and the one check that needs the written state (the
 * resulting projection) throws inside the transaction, so a refused call writes nothing.
 */
type Resolution = 'RETAINED' | 'REREVIEW' | 'WITHDRAWN';

interface NewBinding extends GenerationBinding {
  replaces?: string;
}

/** Checks shared by every action; answers the loaded remediation. */
function prelude(ctx: ServiceContext, channel: string, remediationId: number, expectedVersion: number): LoadedRemediation {
  assertRole(ctx, ['reviewer', 'admin'], channel, 'resolving a remediation');
  const r = loadRemediation(ctx, remediationId, channel);
  if (r.row.status !== 'OPEN') {
    throw conflict(`${channel}: remediation ${remediationId} was already resolved (${r.row.resolution} by ${r.row.resolved_by} at ${r.row.resolved_at}); reload the queue`);
  }
  assertSeesAll(ctx, r.state.bindings.map((b) => b.revision_id), channel, 'resolving a remediation');
  const why = cannotResolve(ctx, r.row, r.causes, 0);
  if (why) throw forbidden(`${channel}: remediation ${remediationId}: ${why}`);
  if (r.state.pending) {
    throw conflict(
      `${channel}: claim ${r.row.claim_id} is still pending revalidation (fence ${r.state.pending.fence_id} on ${r.state.pending.revision_id} has not converged); run the worker (revocation:runWorker) or wait, then reload`,
    );
  }
  const version = r.state.stored?.version ?? 0;
  if (version !== expectedVersion) {
    throw conflict(`${channel}: the projection of claim ${r.row.claim_id} is at version ${version}, not ${expectedVersion} as you reviewed it; reload the remediation and review it again`);
  }
  // Nothing moves an open remediation's claim to another generation (bind and unbind wait for it,
  // claims.ts); the check stays so a future path that does cannot resolve against a stale basis.
  // Stryker disable all: unreachable while bind and unbind wait (see above)
  if (r.claim.generation !== r.row.generation) {
    throw conflict(`${channel}: claim ${r.row.claim_id} moved from generation ${r.row.generation} to ${r.claim.generation} since the remediation opened; reload it`);
  }
  // Stryker restore all
  return r;
}

/** Matches each named successor to the affected binding it replaces, refusing anything inexact. */
function successorPlan(ctx: ServiceContext, channel: string, r: LoadedRemediation, successors: readonly string[]): Map<number, string> {
  const plan = new Map<number, string>();
  const affectedRevs = new Map(r.affected.map((a) => [a.bindingId, loadVisibleRevision(ctx.db, ctx.actor, a.revisionId, channel)]));
  const boundNow = new Set(r.state.bindings.map((b) => b.revision_id));
  for (const id of [...new Set(successors)]) {
    const s = loadVisibleRevision(ctx.db, ctx.actor, id, channel);
    const sameLineage = r.affected.filter((a) => affectedRevs.get(a.bindingId)!.evidence_id === s.evidence_id);
    if (sameLineage.length === 0) {
      throw conflict(
        `${channel}: ${id} belongs to lineage ${s.evidence_id}, and no affected binding does (affected: ${r.affected.map((a) => a.revisionId).join(', ')}); ` +
          'a revision from a different lineage cannot inherit the review: request a re-review instead',
      );
    }
    // The closest earlier revision in the lineage is the one this successor replaces.
    const older = sameLineage.filter((a) => affectedRevs.get(a.bindingId)!.revision < s.revision).sort((a, b) => affectedRevs.get(b.bindingId)!.revision - affectedRevs.get(a.bindingId)!.revision);
    const target = older[0];
    if (!target) throw conflict(`${channel}: ${id} is not a later revision than ${sameLineage.map((a) => a.revisionId).join(', ')}; name a successor revision`);
    if (plan.has(target.bindingId)) throw conflict(`${channel}: both ${plan.get(target.bindingId)} and ${id} would replace ${target.revisionId}; name exactly one successor per affected binding`);
    if (boundNow.has(id)) throw conflict(`${channel}: ${id} is already bound to claim ${r.row.claim_id}; it cannot also replace ${target.revisionId}`);
    // Stryker disable next-line ConditionalExpression: equivalent; the candidates start at s's own revision, so the first is s
    const candidate = successorCandidates(ctx, s.evidence_id, s.revision - 1, r.claim.scope).find((c) => c.revisionId === id)!;
    if (!candidate.usable) {
      throw conflict(`${channel}: successor ${id} is not usable (${candidate.reasons.join('; ')}); validate it first or name another successor`);
    }
    plan.set(target.bindingId, id);
  }
  const uncovered = r.affected.filter((a) => a.role === 'REQUIRED' && !plan.has(a.bindingId));
  if (uncovered.length > 0) {
    throw conflict(
      `${channel}: REQUIRED binding${uncovered.length === 1 ? '' : 's'} of ${uncovered.map((a) => a.revisionId).join(', ')} ha${uncovered.length === 1 ? 's' : 've'} no successor; ` +
        'name a successor revision of the same lineage for each, or request a re-review',
    );
  }
  return plan;
}



/** Recomputes and stores the new generation's projection (compare-and-swap on the version reviewed). */
function storeProjection(ctx: ServiceContext, channel: string, claimId: string, expectedVersion: number) {
  const s = loadProjectionStates(ctx.db, [claimId]).get(claimId)!;
  const live = liveProjection(s, ctx.now());
  const fenceWatermark = maxFenceId(ctx.db);
  const changed = ctx.db
    .prepare(
      `UPDATE support_projection SET generation = ?, projection = ?, reasons = ?, version = version + 1, fence_watermark = ?, computed_at = ?, job_id = NULL
       WHERE claim_id = ? AND version = ?`,
    )
    .run(s.generation, live.projection, JSON.stringify(live.reasons), fenceWatermark, ctx.now(), claimId, expectedVersion).changes;
  // prelude() checked the version in this same write transaction; the compare-and-swap stays so this write can never skip a version.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: unreachable inside the write transaction (see above)
  if (changed !== 1) throw conflict(`${channel}: the projection of claim ${claimId} moved past version ${expectedVersion}; reload the remediation and review it again`);
  return { projection: live.projection, reasons: live.reasons, version: expectedVersion + 1, fenceWatermark };
}

/** The approved decision carried to the new generation: same verdict and rationale, new basis and fingerprint. */
function carryDecision(ctx: ServiceContext, old: DecisionRow, generation: number, note: string): DecisionRow {
  const basis = claimBasis(ctx.db, { claim_id: old.claim_id, generation });
  const computationRefs = JSON.parse(old.computation_refs) as string[];
  // Computations are arithmetic over one generation's evidence; a new basis needs them made again.
  if (computationRefs.length > 0) {
    throw conflict(`remediation: decision ${old.decision_id} cites computations (${computationRefs.join(', ')}) over the evidence of generation ${old.generation}; re-review the claim and record them again instead of retaining the decision`);
  }
  const decisionId = `dec-${randomUUID().slice(0, 8)}`;
  ctx.db
    .prepare(
      `INSERT INTO decision (decision_id, claim_id, generation, verdict, rationale, evidence_refs, computation_refs, fingerprint, status,
         proposed_by, proposed_at, decided_by, decided_at, decision_note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'APPROVED', ?, ?, ?, ?, ?)`,
    )
    .run(decisionId, old.claim_id, generation, old.verdict, old.rationale, JSON.stringify(basis.evidenceRefs), old.computation_refs,
      decisionFingerprint(basis, old.verdict, computationRefs), old.proposed_by, ctx.now(), ctx.actor.actorId, ctx.now(), note);
  return ctx.db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(decisionId) as DecisionRow;
}

function resolve(
  ctx: ServiceContext,
  channel: string,
  r: LoadedRemediation,
  expectedVersion: number,
  resolution: Resolution,
  reason: string,
  plan: Map<number, string>,
): RemediationView {
  const affected = new Map<number, AffectedBinding>(r.affected.map((a) => [a.bindingId, a]));
  const next: NewBinding[] = [];
  const dropped: string[] = [];
  for (const b of r.state.bindings) {
    const a = affected.get(b.binding_id);
    const successor = plan.get(b.binding_id);
    const rationale = (ctx.db.prepare('SELECT rationale FROM claim_binding WHERE binding_id = ?').get(b.binding_id) as { rationale: string }).rationale;
    if (!a) next.push({ revisionId: b.revision_id, relation: b.relation, role: b.role, rationale });
    else if (successor) next.push({ revisionId: successor, relation: b.relation, role: b.role, rationale: `${rationale} [retained on ${successor}, successor of ${b.revision_id}, by remediation ${r.row.remediation_id}]`, replaces: b.revision_id });
    else dropped.push(b.revision_id);
  }
  const generation = writeGeneration(ctx, channel, r.row.claim_id, r.row.generation, next);
  const projection = storeProjection(ctx, channel, r.row.claim_id, expectedVersion);
  const stillShort =
    projection.projection === 'BLOCKED' ||
    // A stale successor is refused as unusable (successorPlan) and a stale binding left in place
    // holds the claim pending (prelude), so this is defensive: no path reaches it today.
    // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable (see above)
    projection.projection === 'PENDING_REVALIDATION';
  if (resolution === 'RETAINED' && stillShort) {
    throw conflict(`${channel}: on the named successors claim ${r.row.claim_id} would still be ${projection.projection} (${projection.reasons.join('; ')}); name other successors or request a re-review`);
  }
  const carried =
    resolution === 'RETAINED'
      ? carryDecision(ctx, r.decision, generation, `retained on ${[...plan.values()].join(', ')} by remediation ${r.row.remediation_id}: ${reason}`)
      : null;
  const changed = ctx.db
    .prepare(
      `UPDATE remediation SET status = 'RESOLVED', resolution = ?, resolved_by = ?, resolved_at = ?, resolution_reason = ?, new_generation = ?, carried_decision_id = ?
       WHERE remediation_id = ? AND status = 'OPEN'`,
    )
    .run(resolution, ctx.actor.actorId, ctx.now(), reason, generation, carried?.decision_id ?? null, r.row.remediation_id).changes;
  // prelude() found it OPEN in this same write transaction; the compare-and-swap stays so a resolution is never written over.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: unreachable inside the write transaction (see above)
  if (changed !== 1) throw conflict(`${channel}: remediation ${r.row.remediation_id} was resolved while you were deciding; reload it`);
  const swapped = next.filter((b) => b.replaces).map((b) => ({ replaces: b.replaces!, successor: b.revisionId }));
  // The bindings this resolution wrote: later bindings of the same generation are other receipts' facts.
  const bindingWatermark = maxBindingId(ctx.db, r.row.claim_id, generation);
  appendReceipt(ctx, {
    action: channel,
    targets: [
      `claim:${r.row.claim_id}`,
      `remediation:${r.row.remediation_id}`,
      `decision:${r.decision.decision_id}`,
      ...(carried ? [`decision:${carried.decision_id}`] : []),
      ...swapped.flatMap((s) => [`revision:${s.successor}`, `revision:${s.replaces}`]),
    ],
    body: {
      remediationId: r.row.remediation_id,
      claimId: r.row.claim_id,
      resolution,
      reason,
      decisionId: r.decision.decision_id,
      carriedDecisionId: carried?.decision_id ?? null,
      fromGeneration: r.row.generation,
      toGeneration: generation,
      bindingWatermark,
      successors: swapped,
      carriedBindings: next.filter((b) => !b.replaces).map((b) => b.revisionId),
      droppedBindings: dropped,
      // What the stored projection row was written as: verify holds its reasons and watermark to it.
      projection: {
        expectedVersion, version: projection.version, projection: projection.projection,
        reasonsSha256: sha256Hex(JSON.stringify(projection.reasons)), fenceWatermark: projection.fenceWatermark,
      },
    },
    pre: { claimId: r.row.claim_id, generation: r.row.generation },
    post: { claimId: r.row.claim_id, generation },
    artifacts: {
      bindings: generationDigest(ctx.db, r.row.claim_id, generation, bindingWatermark),
      ...(carried ? { decision: sha256Hex(canonicalJson(decisionState(carried))) } : {}),
    },
  });
  return toRemediationView(ctx, loadRemediation(ctx, r.row.remediation_id, channel));
}

export function retainCurrentRevision(ctx: ServiceContext, req: ParsedRequestOf<'remediation:retainCurrentRevision'>): RemediationView {
  const channel = 'remediation:retainCurrentRevision';
  return writeTransaction(ctx.db, () => {
    const r = prelude(ctx, channel, req.remediationId, req.expectedProjectionVersion);
    // Retaining re-approves the decision on the successors: the approval's own four-eyes rule holds
    // too (prelude() has already refused whoever fenced a cause).
    const refusal = fourEyesRefusal(ctx.actor.actorId, 'retain the decision on a successor', [
      { role: 'proposer', actorId: r.decision.proposed_by, ref: r.decision.decision_id },
      { role: 'claim-author', actorId: r.claim.author, ref: r.row.claim_id },
    ]);
    if (refusal) throw forbidden(`${channel}: ${refusal}`);
    const plan = successorPlan(ctx, channel, r, req.successors);
    return resolve(ctx, channel, r, req.expectedProjectionVersion, 'RETAINED', req.reason, plan);
  });
}

export function requestRereview(ctx: ServiceContext, req: ParsedRequestOf<'remediation:requestRereview'>): RemediationView {
  const channel = 'remediation:requestRereview';
  return writeTransaction(ctx.db, () => {
    const r = prelude(ctx, channel, req.remediationId, req.expectedProjectionVersion);
    return resolve(ctx, channel, r, req.expectedProjectionVersion, 'REREVIEW', req.reason, new Map());
  });
}

export function withdrawRemediated(ctx: ServiceContext, req: ParsedRequestOf<'remediation:withdraw'>): RemediationView {
  const channel = 'remediation:withdraw';
  return writeTransaction(ctx.db, () => {
    const r = prelude(ctx, channel, req.remediationId, req.expectedProjectionVersion);
    return resolve(ctx, channel, r, req.expectedProjectionVersion, 'WITHDRAWN', req.reason, new Map());
  });
}
