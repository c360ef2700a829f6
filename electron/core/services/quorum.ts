import { quorumOutcome } from '../../../shared/domain/quorum';
import { killReasonsOf, voteValidity } from '../../../shared/domain/review';
import type { QuorumView, VoteView } from '../../../shared/ipc/channels/review';
import type { ServiceContext } from '../context';
import { policyOf, type ClaimRow } from '../store/claimRows';
import { voteState, type VoteRow } from '../store/reviewRows';
import { claimBasis, voteBasisFingerprint } from './claimBasis';

export function toVoteView(r: VoteRow): VoteView {
  const s = voteState(r);
  return { ...s, problems: voteValidity({ checklist: s.checklist, reason: s.reason }).problems };
}

/** The quorum state of a claim that requires a quorum review; null for one that does not. */
export function quorumOf(ctx: ServiceContext, claim: ClaimRow): QuorumView | null {
  const size = policyOf(claim).quorumSize;
  return size === null ? null : quorumView(ctx, claim, size);
}

/**
 * The quorum state of a claim: each reviewer's latest vote on the claim's current basis counts;
 * votes on an earlier generation or evidence set stay as history but do not count, because they
 * reviewed something else.
 */
export function quorumView(ctx: ServiceContext, claim: ClaimRow, size: number): QuorumView {
  const basis = voteBasisFingerprint(claimBasis(ctx.db, claim));
  const rows = ctx.db.prepare('SELECT * FROM review_vote WHERE claim_id = ? ORDER BY vote_id').all(claim.claim_id) as VoteRow[];
  const latest = new Map<string, VoteRow>();
  for (const r of rows) if (r.basis === basis) latest.set(r.reviewer, r);
  const votes = [...latest.values()].map(toVoteView);
  const outcome = quorumOutcome(votes.map((v) => ({ reviewer: v.reviewer, refuted: v.refuted, valid: v.valid })), size);
  return {
    size,
    ...outcome,
    killReasons: killReasonsOf(outcome, size, votes),
    votes,
    staleVotes: rows.filter((r) => r.basis !== basis).length,
  };
}

