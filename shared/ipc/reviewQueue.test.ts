import { describe, expect, it } from 'vitest';
import type { ClaimReviewSummary } from './channels/review';
import { reviewFilterCounts, reviewQueueView } from './reviewQueue';

const item = (
  claimId: string,
  decisionState: ClaimReviewSummary['decisionState'],
  quorumTier: ClaimReviewSummary['quorumTier'] = null,
  awaitingMe: ClaimReviewSummary['awaitingMe'] = null,
): ClaimReviewSummary => ({
  claimId,
  statement: claimId,
  generation: 1,
  status: 'SUPPORTED',
  decisionState,
  verdict: null,
  quorumTier,
  awaitingMe,
  unsettled: null,
});

const queue = [
  item('cl-decided', 'DECIDED'),
  item('cl-undecided-1', 'UNDECIDED'),
  item('cl-stale', 'STALE'),
  item('cl-unresolved', 'UNRESOLVED'),
  item('cl-quorum', 'PROPOSED', 'UNVERIFIED', 'vote'),
  item('cl-undecided-2', 'UNDECIDED'),
];
const ids = (items: ClaimReviewSummary[]) => items.map((i) => i.claimId);

describe('review queue', () => {
  it('puts stale decisions first, then open proposals, then undecided claims, settled ones last, keeping the service order within each', () => {
    expect(ids(reviewQueueView(queue, 'all'))).toEqual(['cl-stale', 'cl-quorum', 'cl-undecided-1', 'cl-undecided-2', 'cl-unresolved', 'cl-decided']);
  });

  it('filters: needs action, quorum claims, settled; and counts each filter', () => {
    expect(ids(reviewQueueView(queue, 'action'))).toEqual(['cl-stale', 'cl-quorum', 'cl-undecided-1', 'cl-undecided-2']);
    expect(ids(reviewQueueView(queue, 'quorum'))).toEqual(['cl-quorum']);
    expect(ids(reviewQueueView(queue, 'settled'))).toEqual(['cl-unresolved', 'cl-decided']);
    expect(reviewFilterCounts(queue)).toEqual({ all: 6, mine: 1, action: 4, quorum: 1, settled: 2 });
  });

  it('awaiting me: the proposals this reviewer may approve and the votes they owe, apart from the rest', () => {
    const mine = [item('cl-approve', 'PROPOSED', null, 'approve'), item('cl-own', 'PROPOSED'), item('cl-vote', 'UNDECIDED', 'UNVERIFIED', 'vote'), item('cl-done', 'DECIDED')];
    expect(ids(reviewQueueView(mine, 'mine'))).toEqual(['cl-approve', 'cl-vote']);
  });

  it('a decided claim whose evidence was revoked is not settled: it ranks right after stale decisions', () => {
    const flagged = queue.map((i) => (i.claimId === 'cl-decided' ? { ...i, unsettled: 'PENDING_REVALIDATION' as const } : i));
    expect(ids(reviewQueueView(flagged, 'all'))).toEqual(['cl-stale', 'cl-decided', 'cl-quorum', 'cl-undecided-1', 'cl-undecided-2', 'cl-unresolved']);
    expect(ids(reviewQueueView(flagged, 'settled'))).toEqual(['cl-unresolved']);
    expect(reviewFilterCounts(flagged)).toEqual({ all: 6, mine: 1, action: 5, quorum: 1, settled: 1 });
  });
});
