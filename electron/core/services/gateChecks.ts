import type { GateBlocker } from '../../../shared/ipc/channels/gate';
import type { ServiceContext } from '../context';
import type { ClaimRow } from '../store/claimRows';
import { effectiveDecision } from '../store/reviewRows';
import type { ClaimSet } from './claimMemo';
import { listClaims } from './claims';
import { fencedCitations } from './computations';
import { reviewStandings } from './review';
import { remediationBlockers, revalidationBlockers } from './revocationChecks';

/**
 * The completion gate's checks (DESIGN §3.4), in the order their blockers are listed: every claim
 * decided on current fingerprints, nothing disputed, no remediation or revalidation open (the
 * audit chain is checked by gate.ts itself). A plain list: a capability that opens work of its own
 * adds its check here, where a reader of the gate sees it.
 */
export interface GateCheck {
  name: string;
  blockers: (ctx: ServiceContext) => GateBlocker[];
}

export function allClaims(ctx: ServiceContext): ClaimRow[] {
  return ctx.db.prepare('SELECT * FROM claim ORDER BY created_at, claim_id').all() as ClaimRow[];
}

/** Every claim of the case (the gate answers for all of them), as a claim set for claimMemo.ts. */
const everyClaim = (ctx: ServiceContext): ClaimSet => ({
  ids: () => ctx.db.prepare('SELECT claim_id FROM claim ORDER BY created_at, claim_id').pluck().all() as string[],
  rows: (ids) => ctx.db.prepare('SELECT * FROM claim WHERE claim_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as ClaimRow[],
});

function claimDecisions(ctx: ServiceContext): GateBlocker[] {
  const blockers: GateBlocker[] = [];
  const { claims, values: standings } = reviewStandings(ctx, everyClaim(ctx));
  claims.forEach((claim, i) => {
    const target = `claim:${claim.claim_id}`;
    const { state, message, verdict, quorum, newerProposalOpen } = standings[i]!;
    if (state === 'UNDECIDED') blockers.push({ kind: 'undecided', target, message: `${target} is not decided: ${message}; propose and approve a decision, or record it UNRESOLVED` });
    if (state === 'PROPOSED') blockers.push({ kind: 'open-proposal', target, message: `${target}: ${message}` });
    if (state === 'STALE') blockers.push({ kind: 'stale-fingerprint', target, message: `${target}: ${message}; propose a new decision on the claim as it is now` });
    if (newerProposalOpen) {
      blockers.push({ kind: 'open-proposal', target, message: `${target} is decided but a newer proposal is still open; approve, reject or withdraw it` });
    }
    // Votes can move after an approval: a SUPPORTED decision must still stand on a surviving quorum.
    if (verdict === 'SUPPORTED' && quorum && quorum.tier !== 'VERIFIED') {
      blockers.push({ kind: 'quorum', target, message: `${target} is decided SUPPORTED but its quorum review is now ${quorum.tier} (${quorum.reason})` });
    }
  });
  return blockers;
}

function disputes(ctx: ServiceContext): GateBlocker[] {
  const blockers: GateBlocker[] = [];
  const disputed = ctx.db
    .prepare(
      `SELECT DISTINCT b.claim_id, b.revision_id FROM claim c
       JOIN claim_binding b ON b.claim_id = c.claim_id AND b.generation = c.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE r.state = 'DISPUTED' ORDER BY b.claim_id, b.revision_id`,
    )
    .all() as { claim_id: string; revision_id: string }[];
  for (const d of disputed) {
    blockers.push({ kind: 'dispute', target: `revision:${d.revision_id}`, message: `revision ${d.revision_id}, bound to claim ${d.claim_id}, is DISPUTED; resolve the dispute (validate, supersede or revoke it)` });
  }
  const { claims, values: standings } = reviewStandings(ctx, everyClaim(ctx));
  const decided = new Set(claims.filter((_, i) => standings[i]!.state === 'DECIDED').map((c) => c.claim_id));
  for (const c of listClaims(ctx)) {
    if (c.status === 'MIXED' && !decided.has(c.claimId)) {
      blockers.push({ kind: 'dispute', target: `claim:${c.claimId}`, message: `claim ${c.claimId} is MIXED (usable support and refutation) and no current decision resolves it` });
    }
  }
  return blockers;
}

/**
 * A decision in force must still rest on validated evidence. Revocation work (issue 5) fences
 * and remediates such decisions; until a remediation settles them they stay open here. Evidence
 * that was already dead when the decision was proposed was part of what the reviewers weighed
 * (it never counted), so only a change after the proposal reopens the decision.
 */
function decidedEvidence(ctx: ServiceContext): GateBlocker[] {
  const rows = ctx.db
    .prepare(
      `SELECT d.decision_id, d.claim_id, r.revision_id, r.state FROM decision d
       JOIN claim c ON c.claim_id = d.claim_id
       JOIN claim_binding b ON b.claim_id = d.claim_id AND b.generation = d.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE d.status = 'APPROVED' AND d.generation = c.generation
         AND b.relation IN ('FULL_SUPPORT', 'PARTIAL_SUPPORT', 'REFUTES')
         AND r.state NOT IN ('VALIDATED', 'DISPUTED')
         AND (SELECT MAX(t.at) FROM evidence_transition t WHERE t.revision_id = r.revision_id) > d.proposed_at
       ORDER BY d.claim_id, r.revision_id`,
    )
    .all() as { decision_id: string; claim_id: string; revision_id: string; state: string }[];
  return rows
    .filter((r) => effectiveDecision(ctx.db, r.claim_id)?.decision_id === r.decision_id)
    .map((r) => ({
      kind: 'revalidation' as const,
      target: `decision:${r.decision_id}`,
      message: `decision ${r.decision_id} on claim ${r.claim_id} rests on ${r.revision_id}, which is ${r.state}; remediate it (retain a successor revision, re-review or withdraw)`,
    }));
}

/** A decision in force must not rest on a computation over evidence that left VALIDATED (issue 14). */
function decidedComputations(ctx: ServiceContext): GateBlocker[] {
  return fencedCitations(ctx.db).map((f) => ({
    kind: 'revalidation' as const,
    target: `decision:${f.decisionId}`,
    message: `decision ${f.decisionId} on claim ${f.claimId} cites computation ${f.computationId}, whose input ${f.revisionId} is ${f.state}; re-review the claim and record the computation again on usable evidence`,
  }));
}

export const GATE_CHECKS: readonly GateCheck[] = [
  { name: 'claim decisions', blockers: claimDecisions },
  { name: 'disputes', blockers: disputes },
  { name: 'decided evidence', blockers: decidedEvidence },
  { name: 'decided computations', blockers: decidedComputations },
  { name: 'open remediations', blockers: (ctx) => remediationBlockers(ctx.db) },
  { name: 'revocation convergence', blockers: (ctx) => revalidationBlockers(ctx.db) },
];
