import type { Role } from '../../../shared/domain/enums';
import { fourEyesRefusal } from '../../../shared/domain/fourEyes';
import type { ClaimReviewSummary } from '../../../shared/ipc/channels/review';

/** Who may approve or reject a proposed decision. */
export const APPROVERS: readonly Role[] = ['reviewer', 'admin'];
/** Who may vote in a quorum review. */
export const VOTERS: readonly Role[] = ['reviewer', 'admin'];

export type AwaitingMe = NonNullable<ClaimReviewSummary['awaitingMe']>;

/** Where a claim's review stands, as far as who may act next depends on it. */
export interface ReviewTurn {
  claimId: string;
  author: string;
  state: ClaimReviewSummary['decisionState'];
  /** The open proposal: who proposed it, whether it still rests on the claim as it is, and whether every revision it cites is visible to the one asking. */
  openProposal: { proposer: string; current: boolean; citesHidden: boolean } | null;
  /** Quorum claims: who has a vote on the current basis. */
  voters: readonly string[] | null;
}

/**
 * What the acting reviewer owes this claim, judged by the rules the acts themselves check (role,
 * four eyes, a current proposal they can see whole): approving the open proposal, or a vote in
 * an open quorum review they have not cast on the current basis. Null when nothing.
 */
export function awaitingReviewer(actor: { actorId: string; role: Role }, turn: ReviewTurn): AwaitingMe | null {
  const author = { role: 'claim-author' as const, actorId: turn.author, ref: turn.claimId };
  const p = turn.openProposal;
  if (
    p !== null &&
    p.current &&
    !p.citesHidden &&
    APPROVERS.includes(actor.role) &&
    fourEyesRefusal(actor.actorId, 'approve a decision on it', [{ role: 'proposer', actorId: p.proposer, ref: turn.claimId }, author]) === null
  ) {
    return 'approve';
  }
  const open = turn.state !== 'DECIDED' && turn.state !== 'UNRESOLVED';
  if (turn.voters !== null && open && VOTERS.includes(actor.role) && !turn.voters.includes(actor.actorId) && fourEyesRefusal(actor.actorId, 'vote in its quorum review', [author]) === null) {
    return 'vote';
  }
  return null;
}
