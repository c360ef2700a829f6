import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import { latestRead } from './latestRead';
import type { ActionError, ReviewSlice, Slice } from './types';

/** Refusals that mean the claim or decision moved under the reviewer: show where it stands now. */
const MOVED = new Set<ActionError['code']>(['CONFLICT', 'NOT_FOUND']);
/** Refusals that mean the claim is not there for this reviewer (any more): its review is dropped. */
const GONE = new Set<ActionError['code']>(['NOT_FOUND', 'FORBIDDEN']);

export const createReviewSlice: Slice<ReviewSlice> = (set, get) => {
  const reviewReads = latestRead();
  const act = async (claimId: string, run: () => Promise<unknown>): Promise<ActionError | null> => {
    try {
      await run();
    } catch (err) {
      const refused = actionErrorOf(err);
      if (MOVED.has(refused.code)) await get().loadReview(claimId);
      return refused;
    }
    // A decision or vote appends a receipt and can change the gate, the queue and claim outcomes.
    await get().refreshAll();
    if (!get().reviews[claimId]) await get().loadReview(claimId);
    return null;
  };
  return {
    reviews: {},
    reviewError: null,
    selectedReviewClaim: null,
    refreshReviews: async () => {
      const current = reviewReads.begin();
      const shown = Object.keys(get().reviews);
      // A review no longer readable (another reviewer's clearance, a claim gone) is dropped, not kept.
      const read = await Promise.allSettled(shown.map((claimId) => call('review:get', { claimId })));
      if (!current()) return;
      const reviews = read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = read.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !GONE.has(actionErrorOf(r.reason).code));
      set({ reviews: Object.fromEntries(reviews.map((r) => [r.claimId, r])), reviewError: failed ? messageOf(failed.reason) : null });
    },
    loadReview: async (claimId) => {
      try {
        const review = await call('review:get', { claimId });
        set((s) => ({ reviews: { ...s.reviews, [claimId]: review }, reviewError: null }));
      } catch (err) {
        set({ reviewError: messageOf(err) });
      }
    },
    selectReviewClaim: (selectedReviewClaim) => set({ selectedReviewClaim }),
    openReview: (claimId) => set({ selectedReviewClaim: claimId, view: 'review' }),
    proposeDecision: (request) => act(request.claimId, () => call('decision:propose', request)),
    approveDecision: (claimId, request) => act(claimId, () => call('decision:approve', request)),
    rejectDecision: (claimId, request) => act(claimId, () => call('decision:reject', request)),
    withdrawDecision: (claimId, request) => act(claimId, () => call('decision:withdraw', request)),
    castVote: (request) => act(request.claimId, () => call('review:vote', request)),
  };
};
