import type { ClaimReview, ClaimReviewSummary } from '../../shared/ipc/channels/review';
import type { RequestOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { actionErrorOf, messageOf, type ActionError, type Slice } from './slice';

/**
 * Review of claims (DESIGN §3.4): the review queue, each claim's decisions with their fingerprints,
 * and the quorum votes. The service decides everything (four eyes, staleness, quorum); this slice
 * carries what the reviewer saw to it and shows its answer, refusals included.
 */
export interface ReviewSlice {
  /** One line per visible claim: derived status beside where its review stands. */
  reviewQueue: ClaimReviewSummary[];
  /** Full reviews (decisions, basis, quorum) of the claims a view has shown, keyed by claim id. */
  reviews: Record<string, ClaimReview>;
  reviewError: string | null;
  selectedReviewClaim: string | null;
  /** Reloads the queue and every review already on screen; drops reviews no longer visible. */
  loadReviews: () => Promise<void>;
  loadReview: (claimId: string) => Promise<void>;
  selectReviewClaim: (claimId: string | null) => void;
  /** Opens the Review view on a claim (from the graph, a dispute, a blocker). */
  openReview: (claimId: string) => void;
  /** Proposes a verdict with its rationale; another reviewer approves it (four eyes). */
  proposeDecision: (request: RequestOf<'decision:propose'>) => Promise<ActionError | null>;
  /** Carries the fingerprint the reviewer saw: a stale one is refused with CONFLICT. */
  approveDecision: (claimId: string, request: RequestOf<'decision:approve'>) => Promise<ActionError | null>;
  rejectDecision: (claimId: string, request: RequestOf<'decision:reject'>) => Promise<ActionError | null>;
  withdrawDecision: (claimId: string, request: RequestOf<'decision:withdraw'>) => Promise<ActionError | null>;
  /** A quorum vote on the basis fingerprint the reviewer looked at. */
  castVote: (request: RequestOf<'review:vote'>) => Promise<ActionError | null>;
}

/** Refusals that mean the claim or decision moved under the reviewer: show where it stands now. */
const MOVED = new Set<ActionError['code']>(['CONFLICT', 'NOT_FOUND']);

export const createReviewSlice: Slice<ReviewSlice> = (set, get) => {
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
      try {
        const { items } = await call('review:list', {});
        const visible = new Set(items.map((i) => i.claimId));
        // Another actor may not see a claim reviewed before: never keep what the new clearance hides.
        const cached = Object.keys(get().reviews).filter((id) => visible.has(id));
        const reviews = await Promise.all(cached.map((claimId) => call('review:get', { claimId })));
        set({ reviewQueue: items, reviews: Object.fromEntries(reviews.map((r) => [r.claimId, r])), reviewError: null });
      } catch (err) {
        set({ reviewError: messageOf(err) });
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
