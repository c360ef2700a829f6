import type { ChecklistItem, KillReason } from '../../../shared/domain/review';
import { KILL_REASONS } from '../../../shared/domain/review';
import type { ClaimReviewSummary } from '../../../shared/ipc/channels/review';
import type { DecisionState } from '../../components/Badges';

export const REVIEW_FILTER_IDS = ['all', 'mine', 'action', 'quorum', 'settled'] as const;
export type ReviewFilter = (typeof REVIEW_FILTER_IDS)[number];

export const REVIEW_FILTERS: { filter: ReviewFilter; label: string }[] = [
  { filter: 'all', label: 'All' },
  { filter: 'mine', label: 'Awaiting me' },
  { filter: 'action', label: 'Needs action' },
  { filter: 'quorum', label: 'Quorum' },
  { filter: 'settled', label: 'Settled' },
];

/**
 * Most urgent first: an approved decision that went stale is being relied on and no longer holds;
 * a claim whose evidence was revoked (projection not ELIGIBLE) is not settled whatever its decision
 * says; a proposal waits for a second reviewer; then claims nobody decided; settled ones last.
 */
const URGENCY: Record<DecisionState, number> = { STALE: 0, PROPOSED: 2, UNDECIDED: 3, UNRESOLVED: 4, DECIDED: 5 };
const FLAGGED_URGENCY = 1;

const SETTLED = new Set<DecisionState>(['DECIDED', 'UNRESOLVED']);

/** Revoked or superseded evidence unsettles a claim whatever its decision says (the store's unsettledProjection). */
const flagged = (item: ClaimReviewSummary) => item.unsettled !== null;

const settled = (item: ClaimReviewSummary) => SETTLED.has(item.decisionState) && !flagged(item);

export function matchesFilter(item: ClaimReviewSummary, filter: ReviewFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'mine':
      // Worked out by the store with the rules the acts check (role, four eyes, currency).
      return item.awaitingMe !== null;
    case 'action':
      return !settled(item);
    case 'quorum':
      return item.quorumTier !== null;
    case 'settled':
      return settled(item);
  }
}

function urgency(item: ClaimReviewSummary): number {
  const own = URGENCY[item.decisionState];
  return flagged(item) ? Math.min(own, FLAGGED_URGENCY) : own;
}

/** The queue as shown: filtered, most urgent first, the service's order kept within a group. */
export function reviewQueueView(items: readonly ClaimReviewSummary[], filter: ReviewFilter): ClaimReviewSummary[] {
  return items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => matchesFilter(item, filter))
    .sort((a, b) => urgency(a.item) - urgency(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

export function filterCounts(items: readonly ClaimReviewSummary[]): Record<ReviewFilter, number> {
  const counts = { all: 0, mine: 0, action: 0, quorum: 0, settled: 0 };
  for (const item of items) for (const { filter } of REVIEW_FILTERS) if (matchesFilter(item, filter)) counts[filter] += 1;
  return counts;
}

/** The selected claim if it is still listed, else the most urgent one. */
export function currentReviewClaim(shown: readonly ClaimReviewSummary[], all: readonly ClaimReviewSummary[], selected: string | null): string | null {
  if (selected && all.some((i) => i.claimId === selected)) return selected;
  return shown[0]?.claimId ?? null;
}

/** For each checklist question, the answer that speaks against the claim (shown as a concern). */
export const CONCERN_ANSWER: Record<ChecklistItem, boolean> = {
  supportedByQuote: false,
  contradictingEvidence: true,
  sourceQualityMatchesClaim: false,
  outdated: true,
  marketingOrForum: true,
};

export const CHECKLIST_SHORT: Record<ChecklistItem, string> = {
  supportedByQuote: 'Quote',
  contradictingEvidence: 'Contradicted',
  sourceQualityMatchesClaim: 'Source fits',
  outdated: 'Outdated',
  marketingOrForum: 'Mkt / forum',
};

/** Kill reasons a reviewer names; TOO_FEW_VALID_VOTES is the quorum's own finding, never a vote's. */
export const VOTER_KILL_REASONS: KillReason[] = KILL_REASONS.filter((r) => r !== 'TOO_FEW_VALID_VOTES');

export const refutedLabel = (refuted: boolean | null): string => (refuted === null ? 'ABSTAIN' : refuted ? 'REFUTED' : 'NOT REFUTED');
