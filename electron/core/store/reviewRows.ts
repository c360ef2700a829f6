import type { Verdict } from '../../../shared/domain/enums';
import type { Checklist, KillReason } from '../../../shared/domain/review';
import type { CaseDb } from './caseFile';

/**
 * Row shapes of the decision and review_vote tables and the state each receipt fingerprints.
 * The services write receipts with these states and the verifier recomputes them from the rows,
 * so both sides must use these functions: one shape, one place.
 */

export type DecisionStatus = 'PROPOSED' | 'APPROVED' | 'REJECTED' | 'WITHDRAWN';

export interface DecisionRow {
  decision_id: string;
  claim_id: string;
  generation: number;
  verdict: Verdict;
  rationale: string;
  evidence_refs: string;
  computation_refs: string;
  fingerprint: string;
  status: DecisionStatus;
  proposed_by: string;
  proposed_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision_note: string | null;
}

export interface VoteRow {
  vote_id: number;
  claim_id: string;
  generation: number;
  basis: string;
  reviewer: string;
  refuted: 0 | 1 | null;
  checklist: string;
  reason: string;
  kill_reasons: string;
  valid: 0 | 1;
  cast_at: string;
}

export function decisionState(r: DecisionRow) {
  return {
    decisionId: r.decision_id,
    claimId: r.claim_id,
    generation: r.generation,
    verdict: r.verdict,
    rationale: r.rationale,
    evidenceRefs: JSON.parse(r.evidence_refs) as string[],
    computationRefs: JSON.parse(r.computation_refs) as string[],
    fingerprint: r.fingerprint,
    status: r.status,
    proposedBy: r.proposed_by,
    proposedAt: r.proposed_at,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    decisionNote: r.decision_note,
  };
}

export function voteState(r: VoteRow) {
  return {
    voteId: r.vote_id,
    claimId: r.claim_id,
    generation: r.generation,
    basis: r.basis,
    reviewer: r.reviewer,
    refuted: r.refuted === null ? null : r.refuted === 1,
    checklist: JSON.parse(r.checklist) as Partial<Checklist>,
    reason: r.reason,
    killReasons: JSON.parse(r.kill_reasons) as KillReason[],
    valid: r.valid === 1,
    castAt: r.cast_at,
  };
}

/**
 * SQL condition on a decision row `d`: it is the approved decision in force for its claim.
 * Approvals happen one proposal at a time, in order, so the latest approval (highest rowid) is the
 * one in force. The one definition of it; effectiveDecisions and the queries that need it in SQL
 * (metrics, the gate's computation check) use this.
 */
export const IN_FORCE = (d: string): string =>
  `${d}.status = 'APPROVED' AND ${d}.rowid = (SELECT MAX(e.rowid) FROM decision e WHERE e.claim_id = ${d}.claim_id AND e.status = 'APPROVED')`;

/** The approved decision in force for each claim (IN_FORCE). */
export function effectiveDecisions(db: CaseDb, claimIds: readonly string[]): Map<string, DecisionRow> {
  const rows = db
    .prepare(`SELECT d.* FROM decision d WHERE d.claim_id IN (SELECT value FROM json_each(?)) AND ${IN_FORCE('d')}`)
    .all(JSON.stringify(claimIds)) as DecisionRow[];
  return new Map(rows.map((d) => [d.claim_id, d]));
}

export function effectiveDecision(db: CaseDb, claimId: string): DecisionRow | null {
  return effectiveDecisions(db, [claimId]).get(claimId) ?? null;
}

export function openProposal(db: CaseDb, claimId: string): DecisionRow | null {
  return (db.prepare(`SELECT * FROM decision WHERE claim_id = ? AND status = 'PROPOSED' ORDER BY rowid DESC LIMIT 1`).get(claimId) as DecisionRow | undefined) ?? null;
}
