import type { HandlersFor } from '../dispatch';
import { castVote, getClaimReview, listClaimReviews } from '../services/review';

export const reviewHandlers = {
  'review:vote': (s, req) => castVote(s.context(), req),
  'review:get': (s, req) => getClaimReview(s.context(), req.claimId),
  'review:list': (s) => listClaimReviews(s.context()),
} satisfies HandlersFor<'review:vote' | 'review:get' | 'review:list'>;
