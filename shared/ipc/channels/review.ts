import { z } from 'zod';
import { ClaimStatus, SupportProjection, Verdict } from '../../domain/enums';
import { KILL_REASONS, type ChecklistItem } from '../../domain/review';
import { Id } from '../../domain/schemas';
import { DecisionView } from './decisions';

export const KillReason = z.enum(KILL_REASONS);

/** Every item may be left open (null or absent): the vote is then recorded but invalid. */
const Answer = z.boolean().nullable().optional();
export const ChecklistInput = z
  .object({
    supportedByQuote: Answer,
    contradictingEvidence: Answer,
    sourceQualityMatchesClaim: Answer,
    outdated: Answer,
    marketingOrForum: Answer,
  } satisfies Record<ChecklistItem, typeof Answer>)
  .strict();

export const VoteView = z.object({
  voteId: z.number().int(),
  claimId: z.string(),
  generation: z.number().int(),
  basis: z.string(),
  reviewer: z.string(),
  /** null = abstain. */
  refuted: z.boolean().nullable(),
  checklist: ChecklistInput,
  reason: z.string(),
  killReasons: z.array(KillReason),
  valid: z.boolean(),
  /** Why the vote does not count, when it is invalid. */
  problems: z.array(z.string()),
  castAt: z.string(),
});
export type VoteView = z.infer<typeof VoteView>;

export const QuorumView = z.object({
  size: z.number().int(),
  tier: z.enum(['VERIFIED', 'UNVERIFIED', 'REFUTED']),
  survives: z.boolean(),
  validVotes: z.number().int(),
  refuteVotes: z.number().int(),
  reason: z.string(),
  /** Why an UNVERIFIED claim did not survive (from the valid votes, plus too few valid votes). */
  killReasons: z.array(KillReason),
  /** Each reviewer's latest vote on the current basis. */
  votes: z.array(VoteView),
  /** Votes cast on an earlier generation or evidence set: kept as history, not counted. */
  staleVotes: z.number().int(),
});
export type QuorumView = z.infer<typeof QuorumView>;

export const DECISION_STATES = ['UNDECIDED', 'PROPOSED', 'DECIDED', 'STALE', 'UNRESOLVED'] as const;

export const ClaimReview = z.object({
  claimId: z.string(),
  statement: z.string(),
  author: z.string(),
  generation: z.number().int(),
  /** Fingerprint of what reviewers look at now (generation and exact refs); review:vote carries it. */
  basis: z.string(),
  evidenceRefs: z.array(z.string()),
  hiddenEvidenceRefs: z.number().int(),
  /** UNDECIDED: no decision; PROPOSED: awaiting approval; DECIDED: an approved decision (or a
   * recorded UNRESOLVED) is current; STALE: the approved decision's fingerprint no longer matches. */
  decisionState: z.enum(DECISION_STATES),
  decisionMessage: z.string(),
  effectiveDecision: DecisionView.nullable(),
  openProposal: DecisionView.nullable(),
  decisions: z.array(DecisionView),
  quorum: QuorumView.nullable(),
});
export type ClaimReview = z.infer<typeof ClaimReview>;

export const ClaimReviewSummary = z.object({
  claimId: z.string(),
  statement: z.string(),
  generation: z.number().int(),
  status: ClaimStatus.nullable(),
  decisionState: z.enum(DECISION_STATES),
  verdict: Verdict.nullable(),
  quorumTier: z.enum(['VERIFIED', 'UNVERIFIED', 'REFUTED']).nullable(),
  /** What the acting reviewer owes this claim: approving its open proposal, or a quorum vote; null when nothing. */
  awaitingMe: z.enum(['approve', 'vote']).nullable(),
  /** The support projection (DESIGN §3.5) when it is not ELIGIBLE or waits for revalidation; null when settled. */
  unsettled: SupportProjection.nullable(),
});
export type ClaimReviewSummary = z.infer<typeof ClaimReviewSummary>;

/** The review queue's filters (reviewQueue.ts says what each keeps). */
export const REVIEW_FILTER_IDS = ['all', 'mine', 'action', 'quorum', 'settled'] as const;
export const ReviewFilter = z.enum(REVIEW_FILTER_IDS);
export type ReviewFilter = z.infer<typeof ReviewFilter>;
export const ReviewCounts = z.record(ReviewFilter, z.number().int());
export type ReviewCounts = z.infer<typeof ReviewCounts>;

/** Where one claim's review stands, as a graph node or a claim panel shows it. */
export const ClaimReviewStanding = ClaimReviewSummary.pick({ claimId: true, decisionState: true, verdict: true, quorumTier: true });
export type ClaimReviewStanding = z.infer<typeof ClaimReviewStanding>;

export const reviewChannels = {
  'review:vote': {
    request: z
      .object({
        claimId: Id,
        /** The basis fingerprint from review:get you reviewed; a stale one is refused (CONFLICT). */
        basis: z.string().length(64, 'expected the basis fingerprint shown by review:get').regex(/^[0-9a-f]{64}$/, 'expected the basis fingerprint shown by review:get'),
        refuted: z.boolean().nullable(),
        checklist: ChecklistInput,
        reason: z.string().max(4000).default(''),
        killReasons: z.array(KillReason).max(KILL_REASONS.length).default([]),
      })
      .strict(),
    response: z.object({ vote: VoteView, quorum: QuorumView }),
  },
  'review:get': {
    request: z.object({ claimId: Id }).strict(),
    response: ClaimReview,
  },
  /** Every claim you may see with where its review stands, whole: for tools and exports. A view reads review:page. */
  'review:list': {
    request: z.object({}).strict(),
    response: z.object({ items: z.array(ClaimReviewSummary) }),
  },
  /** A page of the review queue, most urgent first (reviewQueue.ts), filtered in the store. */
  'review:page': {
    request: z
      .object({
        filter: ReviewFilter.default('all'),
        limit: z.number().int().min(1).max(200).default(100),
        /** The nextCursor of the page before, asked with the same filter. */
        after: z.string().max(1000).optional(),
        /** Also count the claims each filter keeps (the queue's chips). */
        counts: z.boolean().default(false),
      })
      .strict(),
    response: z.object({ items: z.array(ClaimReviewSummary), nextCursor: z.string().nullable(), counts: ReviewCounts.optional() }),
  },
} as const;
