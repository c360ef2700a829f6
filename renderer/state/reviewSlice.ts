import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import { latestRead } from './latestRead';
import type { ActionError, ReviewSlice, Slice } from './types';

/** Refusals that mean the claim or decision moved under the reviewer: show where it stands now. */
const MOVED = new Set<ActionError['code']>(['CONFLICT', 'NOT_FOUND']);

export const createReviewSlice: Slice<ReviewSlice> = (set, get) => {
  const queueReads = latestRead();
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
    reviewQueue: [],
    reviews: {},
    reviewError: null,
    selectedReviewClaim: null,
    loadReviews: async () => {
      const current = queueReads.begin();
      try {
        const { items } = await call('review:list', {});
        const visible = new Set(items.map((i) => i.claimId));
        // Another actor may not see a claim reviewed before: never keep what the new clearance hides.
        const cached = Object.keys(get().reviews).filter((id) => visible.has(id));
        const reviews = await Promise.all(cached.map((claimId) => call('review:get', { claimId })));
        if (!current()) return;
        set({ reviewQueue: items, reviews: Object.fromEntries(reviews.map((r) => [r.claimId, r])), reviewError: null });
      } catch (err) {
        if (current()) set({ reviewError: messageOf(err) });
      }
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
