/**
 * Quorum review for high-risk claims (DESIGN §3.4, seed 003). N reviewers vote `refuted: true|false`
 * after a checklist; a vote with an incomplete checklist or no reason is invalid. Abstentions and
 * invalid votes are not counted at all, so they can never supply the approval majority.
 */

export interface QuorumVote {
  reviewer: string;
  /** null = abstain. */
  refuted: boolean | null;
  /** Checklist complete and reason given. */
  valid: boolean;
}

export type QuorumTier = 'VERIFIED' | 'UNVERIFIED' | 'REFUTED';

export interface QuorumOutcome {
  tier: QuorumTier;
  survives: boolean;
  validVotes: number;
  refuteVotes: number;
  reason: string;
}

export function quorumMajority(size: number): number {
  return Math.floor(size / 2) + 1;
}

/**
 * A reviewer who votes again replaces their earlier vote (the last one in `votes` order counts),
 * so one person can never be counted twice. Votes beyond `size` still count: the majority is fixed
 * by the quorum size, not by how many people turned up.
 */
export function quorumOutcome(votes: readonly QuorumVote[], size: number): QuorumOutcome {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`quorumOutcome: quorum size must be a positive integer, got ${size}`);
  }
  const lastByReviewer = new Map<string, QuorumVote>();
  for (const vote of votes) lastByReviewer.set(vote.reviewer, vote);

  const counted = [...lastByReviewer.values()].filter((v) => v.valid && v.refuted !== null);
  const validVotes = counted.length;
  const refuteVotes = counted.filter((v) => v.refuted === true).length;
  const m = quorumMajority(size);
  const votesWord = (n: number): string => `${n} valid vote${n === 1 ? '' : 's'}`;

  if (refuteVotes >= m) {
    return {
      tier: 'REFUTED',
      survives: false,
      validVotes,
      refuteVotes,
      reason: `${refuteVotes} of ${votesWord(validVotes)} refute; majority of a quorum of ${size} is ${m}`,
    };
  }
  if (validVotes >= m) {
    return {
      tier: 'VERIFIED',
      survives: true,
      validVotes,
      refuteVotes,
      reason: `${votesWord(validVotes)} of ${size}, ${refuteVotes} refute (majority ${m} not reached)`,
    };
  }
  return {
    tier: 'UNVERIFIED',
    survives: false,
    validVotes,
    refuteVotes,
    reason: `only ${votesWord(validVotes)} of ${size} (needs ${m}); abstentions and invalid votes never approve`,
  };
}

/**
 * Why a claim that requires a quorum review may not be recorded UNRESOLVED, or null when it may
 * (seed 003). UNRESOLVED says the reviewers looked and could not decide, so for a quorum claim it
 * needs the quorum to have looked: `size` reviewers with a valid vote on the claim as it is now
 * (an abstention is a valid vote that approves nothing), and no majority either way. One
 * reviewer's mark must not stand in for the votes.
 */
export function unresolvedRefusal(outcome: QuorumOutcome, votes: readonly QuorumVote[], size: number): string | null {
  if (outcome.tier !== 'UNVERIFIED') {
    return `its quorum review reached a verdict (${outcome.tier}: ${outcome.reason}); propose and approve a decision instead of recording it UNRESOLVED`;
  }
  const lastByReviewer = new Map<string, QuorumVote>();
  for (const vote of votes) lastByReviewer.set(vote.reviewer, vote);
  const looked = [...lastByReviewer.values()].filter((v) => v.valid).length;
  if (looked < size) {
    return `it requires a quorum review of ${size} and only ${looked} reviewer${looked === 1 ? ' has' : 's have'} voted validly on it as it is now; collect the quorum's votes (review:vote, abstaining is allowed) before recording it UNRESOLVED`;
  }
  return null;
}
