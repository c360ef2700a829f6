import type { HandlersFor } from '../dispatch';
import { castVote, getClaimReview, listClaimReviews, pageClaimReviews } from '../services/review';

export const reviewHandlers = {
  'review:vote': (s, req) => castVote(s.context(), req),
  'review:get': (s, req) => getClaimReview(s.context(), req.claimId),
  'review:list': (s) => listClaimReviews(s.context()),
  'review:page': (s, req) => pageClaimReviews(s.context(), req),
} satisfies HandlersFor<'review:vote' | 'review:get' | 'review:list' | 'review:page'>;
