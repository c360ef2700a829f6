import type { ClaimReviewSummary, ReviewCounts, ReviewFilter } from './channels/review';
import { REVIEW_FILTER_IDS } from './channels/review';

type DecisionState = ClaimReviewSummary['decisionState'];

/**
 * The review queue's order and filters, in one place: the store pages the queue by them
 * (review:page) and the renderer only draws what it is sent.
 *
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

export function matchesReviewFilter(item: ClaimReviewSummary, filter: ReviewFilter): boolean {
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

/** The claim's place in the queue: lower is more urgent. */
export function reviewUrgency(item: ClaimReviewSummary): number {
  const own = URGENCY[item.decisionState];
  return flagged(item) ? Math.min(own, FLAGGED_URGENCY) : own;
}

/** The queue as shown: filtered, most urgent first, the service's order kept within a group. */
export function reviewQueueView(items: readonly ClaimReviewSummary[], filter: ReviewFilter): ClaimReviewSummary[] {
  return items
    .map((item, index) => ({ item, index, urgency: reviewUrgency(item) }))
    .filter(({ item }) => matchesReviewFilter(item, filter))
    .sort((a, b) => a.urgency - b.urgency || a.index - b.index)
    .map(({ item }) => item);
}

/** How many claims each filter keeps. */
export function reviewFilterCounts(items: readonly ClaimReviewSummary[]): ReviewCounts {
  const counts = Object.fromEntries(REVIEW_FILTER_IDS.map((f) => [f, 0])) as ReviewCounts;
  for (const item of items) for (const f of REVIEW_FILTER_IDS) if (matchesReviewFilter(item, f)) counts[f] += 1;
  return counts;
}
