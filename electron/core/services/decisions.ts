import { randomUUID } from 'node:crypto';
import type { Verdict } from '../../../shared/domain/enums';
import { fourEyesRefusal } from '../../../shared/domain/fourEyes';
import { unresolvedRefusal } from '../../../shared/domain/quorum';
import type { DecisionView } from '../../../shared/ipc/channels/decisions';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { conflict, forbidden, notFound } from '../errors';
import { aclFilter } from '../store/acl';
import {
  assertRole,
  assertSeesAll,
  basisChanges,
  claimBasis,
  decisionFingerprint,
  visibleRefs,
} from './claimBasis';
import { loadVisibleClaim, policyOf, type ClaimRow } from '../store/claimRows';
import { decisionProjection } from './projection';
import { quorumView } from './quorum';
import { assertCitable } from './computations';
import { decisionState, effectiveDecision, openProposal, type DecisionRow } from '../store/reviewRows';
import { writeTransaction } from '../store/caseFile';
import { APPROVERS } from './reviewRoles';

/** Verdicts that close a claim; NEEDS_MORE_EVIDENCE keeps it open. */
export const TERMINAL_VERDICTS: ReadonlySet<Verdict> = new Set(['SUPPORTED', 'REFUTED', 'UNRESOLVED']);

/** Whether a decision still rests on exactly what the claim is now, and if not, what moved. */
export function currency(ctx: ServiceContext, d: DecisionRow): { current: boolean; currentFingerprint: string; changes: string[] } {
  const claim = ctx.db.prepare('SELECT claim_id, generation FROM claim WHERE claim_id = ?').get(d.claim_id) as { claim_id: string; generation: number };
  const basis = claimBasis(ctx.db, claim);
  const currentFingerprint = decisionFingerprint(basis, d.verdict, JSON.parse(d.computation_refs) as string[]);
  if (currentFingerprint === d.fingerprint) return { current: true, currentFingerprint, changes: [] };
  const changes = basisChanges(ctx.db, ctx.actor, { generation: d.generation, evidenceRefs: JSON.parse(d.evidence_refs) as string[] }, basis);
  if (changes.length === 0) changes.push('the fingerprint no longer matches although generation and evidence did not move: the decision record may have been altered; run audit:verify');
  return { current: false, currentFingerprint, changes };
}

export function toDecisionView(ctx: ServiceContext, d: DecisionRow): DecisionView {
  const s = decisionState(d);
  const visible = visibleRefs(ctx.db, ctx.actor, s.evidenceRefs);
  const { current, changes } = currency(ctx, d);
  return {
    ...s,
    evidenceRefs: s.evidenceRefs.filter((r) => visible.has(r)),
    hiddenEvidenceRefs: s.evidenceRefs.length - visible.size,
    current,
    changes,
    effective: d.status === 'APPROVED' && effectiveDecision(ctx.db, d.claim_id)?.decision_id === d.decision_id,
    // A current decision is only as current as its evidence: revocation fences show through (issue 5).
    ...(current ? decisionProjection(ctx, d.claim_id) : {}),
  };
}

/** A decision the actor may see (its claim is within their clearance), with its claim. */
function loadDecision(ctx: ServiceContext, decisionId: string, channel: string): { d: DecisionRow; claim: ClaimRow } {
  const d = ctx.db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(decisionId) as DecisionRow | undefined;
  if (!d) throw notFound(`${channel}: no decision ${decisionId} is visible to you`);
  try {
    return { d, claim: loadVisibleClaim(ctx, d.claim_id, channel) };
  } catch {
    // Same answer as a missing decision: an error never confirms that hidden claims exist.
    throw notFound(`${channel}: no decision ${decisionId} is visible to you`);
  }
}

function assertProposed(d: DecisionRow, channel: string): void {
  if (d.status !== 'PROPOSED') throw conflict(`${channel}: decision ${d.decision_id} is ${d.status}, not PROPOSED; only an open proposal can be approved, rejected or withdrawn`);
}

/** Moves a proposal to its final status and appends the one receipt for it. */
function settle(ctx: ServiceContext, d: DecisionRow, channel: string, status: 'APPROVED' | 'REJECTED' | 'WITHDRAWN', note: string | null, extra: Record<string, unknown>): DecisionView {
  const changed = ctx.db
    .prepare(`UPDATE decision SET status = ?, decided_by = ?, decided_at = ?, decision_note = ? WHERE decision_id = ? AND status = 'PROPOSED'`)
    .run(status, ctx.actor.actorId, ctx.now(), note, d.decision_id).changes;
  // Within the write transaction assertProposed already holds; the compare-and-swap stays so settle can never overwrite a decision.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: unreachable inside the write transaction (see above)
  if (changed !== 1) throw conflict(`${channel}: decision ${d.decision_id} changed while you were deciding; reload it`);
  const after = ctx.db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(d.decision_id) as DecisionRow;
  appendReceipt(ctx, {
    action: channel,
    targets: [`decision:${d.decision_id}`, `claim:${d.claim_id}`],
    body: { decisionId: d.decision_id, claimId: d.claim_id, generation: d.generation, verdict: d.verdict, fingerprint: d.fingerprint, note, ...extra },
    pre: decisionState(d),
    post: decisionState(after),
  });
  return toDecisionView(ctx, after);
}

export function proposeDecision(ctx: ServiceContext, req: ParsedRequestOf<'decision:propose'>): DecisionView {
  return writeTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, 'decision:propose');
    const basis = claimBasis(ctx.db, claim);
    assertSeesAll(ctx, basis.evidenceRefs, 'decision:propose', 'proposing a decision');
    if ((req.verdict === 'SUPPORTED' || req.verdict === 'REFUTED') && basis.evidenceRefs.length === 0) {
      throw conflict(`decision:propose: claim ${claim.claim_id} has no bound evidence, so it cannot be ${req.verdict}; bind evidence first or propose UNRESOLVED / NEEDS_MORE_EVIDENCE`);
    }
    const open = openProposal(ctx.db, claim.claim_id);
    if (open) throw conflict(`decision:propose: claim ${claim.claim_id} already has the open proposal ${open.decision_id}; approve, reject or withdraw it first`);
    const decisionId = `dec-${randomUUID().slice(0, 8)}`;
    const computationRefs = [...new Set(req.computationRefs)].sort();
    assertCitable(ctx, claim, computationRefs, 'decision:propose');
    const fingerprint = decisionFingerprint(basis, req.verdict, computationRefs);
    ctx.db
      .prepare(
        `INSERT INTO decision (decision_id, claim_id, generation, verdict, rationale, evidence_refs, computation_refs,
           fingerprint, proposed_by, proposed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(decisionId, claim.claim_id, basis.generation, req.verdict, req.rationale, JSON.stringify(basis.evidenceRefs), JSON.stringify(computationRefs), fingerprint, ctx.actor.actorId, ctx.now());
    const row = ctx.db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(decisionId) as DecisionRow;
    appendReceipt(ctx, {
      action: 'decision:propose',
      targets: [`decision:${decisionId}`, `claim:${claim.claim_id}`, ...basis.evidenceRefs.map((r) => `revision:${r}`)],
      body: { decisionId, claimId: claim.claim_id, generation: basis.generation, verdict: req.verdict, rationale: req.rationale, evidenceRefs: basis.evidenceRefs, computationRefs, fingerprint },
      post: decisionState(row),
    });
    return toDecisionView(ctx, row);
  });
}

/**
 * Approves a proposal: another reviewer than the claim's author and the proposal's author (four
 * eyes), carrying the fingerprint they reviewed, which must still be the claim's current one.
 * A SUPPORTED verdict on a quorum claim needs the quorum to have survived (VERIFIED).
 */
export function approveDecision(ctx: ServiceContext, req: ParsedRequestOf<'decision:approve'>): DecisionView {
  const channel = 'decision:approve';
  assertRole(ctx, APPROVERS, channel, 'approving a decision');
  return writeTransaction(ctx.db, () => {
    const { d, claim } = loadDecision(ctx, req.decisionId, channel);
    assertProposed(d, channel);
    const refusal = fourEyesRefusal(ctx.actor.actorId, 'approve a decision on it', [
      { role: 'proposer', actorId: d.proposed_by, ref: d.decision_id },
      { role: 'claim-author', actorId: claim.author, ref: claim.claim_id },
    ]);
    if (refusal) throw forbidden(`${channel}: ${refusal}`);
    assertSeesAll(ctx, JSON.parse(d.evidence_refs) as string[], channel, 'approving');
    if (req.fingerprint !== d.fingerprint) {
      throw conflict(`${channel}: the fingerprint you reviewed (${req.fingerprint.slice(0, 12)}…) is not the fingerprint of ${d.decision_id} (${d.fingerprint.slice(0, 12)}…); reload the decision and review it again`);
    }
    const now = currency(ctx, d);
    if (!now.current) {
      throw conflict(`${channel}: ${d.decision_id} is stale: ${now.changes.join('; ')}; propose a new decision on the claim as it is now`);
    }
    assertCitable(ctx, claim, JSON.parse(d.computation_refs) as string[], channel);
    const policy = policyOf(claim);
    let quorum: Record<string, unknown> | null = null;
    if (policy.quorumSize !== null) {
      const q = quorumView(ctx, claim, policy.quorumSize);
      quorum = { tier: q.tier, validVotes: q.validVotes, refuteVotes: q.refuteVotes };
      if (d.verdict === 'SUPPORTED' && q.tier !== 'VERIFIED') {
        throw conflict(`${channel}: claim ${claim.claim_id} needs a quorum review of ${policy.quorumSize} and it is ${q.tier} (${q.reason}); a SUPPORTED verdict needs the quorum to survive: collect votes with review:vote`);
      }
      const refusal = d.verdict === 'UNRESOLVED' ? unresolvedRefusal(q, q.votes, policy.quorumSize) : null;
      if (refusal) throw conflict(`${channel}: claim ${claim.claim_id} cannot be decided UNRESOLVED: ${refusal}`);
    }
    const supersedes = effectiveDecision(ctx.db, claim.claim_id)?.decision_id ?? null;
    return settle(ctx, d, channel, 'APPROVED', req.note ?? null, { supersedes, quorum });
  });
}

export function rejectDecision(ctx: ServiceContext, req: ParsedRequestOf<'decision:reject'>): DecisionView {
  const channel = 'decision:reject';
  assertRole(ctx, APPROVERS, channel, 'rejecting a decision');
  return writeTransaction(ctx.db, () => {
    const { d } = loadDecision(ctx, req.decisionId, channel);
    assertProposed(d, channel);
    if (d.proposed_by === ctx.actor.actorId) {
      throw forbidden(`${channel}: ${d.decision_id} is your own proposal; withdraw it with decision:withdraw instead`);
    }
    return settle(ctx, d, channel, 'REJECTED', req.reason, {});
  });
}

export function withdrawDecision(ctx: ServiceContext, req: ParsedRequestOf<'decision:withdraw'>): DecisionView {
  const channel = 'decision:withdraw';
  return writeTransaction(ctx.db, () => {
    const { d } = loadDecision(ctx, req.decisionId, channel);
    assertProposed(d, channel);
    if (d.proposed_by !== ctx.actor.actorId) {
      throw forbidden(`${channel}: only ${d.proposed_by}, who proposed ${d.decision_id}, may withdraw it; a reviewer may reject it instead`);
    }
    return settle(ctx, d, channel, 'WITHDRAWN', req.reason, {});
  });
}

/** Read-only check that a decision someone relies on is still the one they saw, and current. */
export function verifyDecision(ctx: ServiceContext, req: ParsedRequestOf<'decision:verify'>): DecisionView {
  const { d } = loadDecision(ctx, req.decisionId, 'decision:verify');
  if (req.fingerprint !== d.fingerprint) {
    throw conflict(`decision:verify: ${req.fingerprint.slice(0, 12)}… is not the fingerprint of ${d.decision_id} (${d.fingerprint.slice(0, 12)}…); you are looking at a different decision`);
  }
  const now = currency(ctx, d);
  if (!now.current) throw conflict(`decision:verify: ${d.decision_id} is stale: ${now.changes.join('; ')}`);
  return toDecisionView(ctx, d);
}

export function getDecision(ctx: ServiceContext, decisionId: string): DecisionView {
  return toDecisionView(ctx, loadDecision(ctx, decisionId, 'decision:get').d);
}

export function listDecisions(ctx: ServiceContext, req: ParsedRequestOf<'decision:list'>): { items: DecisionView[] } {
  const acl = aclFilter(ctx.actor, 'c');
  const where = [acl.sql];
  const params: string[] = [...acl.params];
  if (req.claimId) {
    where.push('d.claim_id = ?');
    params.push(req.claimId);
  }
  if (req.status) {
    where.push('d.status = ?');
    params.push(req.status);
  }
  const rows = ctx.db
    .prepare(`SELECT d.* FROM decision d JOIN claim c ON c.claim_id = d.claim_id WHERE ${where.join(' AND ')} ORDER BY d.claim_id, d.rowid`)
    .all(...params) as DecisionRow[];
  return { items: rows.map((d) => toDecisionView(ctx, d)) };
}
