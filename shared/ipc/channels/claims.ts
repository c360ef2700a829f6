import { z } from 'zod';
import { BindingRole, Classification, ClaimStatus, Relation, SupportProjection } from '../../domain/enums';
import { BindingView, ChosenName, ClaimSummary, Id, RevisionId } from '../../domain/schemas';
import { ClaimPolicySchema } from '../../domain/claimStatus';

export const ClaimDetail = ClaimSummary.extend({
  scope: z.array(z.string()),
  policy: ClaimPolicySchema,
  tenant: z.string(),
  classification: Classification,
  unresolvedReason: z.string().nullable(),
  reasons: z.array(z.string()),
  /** How full support was counted (DESIGN §3.2, §3.11): one group per independent source, and why items were merged. */
  independence: z.array(z.object({ refs: z.array(z.string()), source: z.string(), why: z.array(z.string()) })),
  /** Bindings of earlier generations (kept as history, never in force), newest generation first. */
  historicalBindings: z.array(BindingView.extend({ historical: z.literal(true) })).optional(),
});
export type ClaimDetail = z.infer<typeof ClaimDetail>;

/** How many claims match a page's filters, in all and per status (the status filter aside): a queue's chips. */
export const ClaimCounts = z.object({ total: z.number().int(), byStatus: z.record(ClaimStatus, z.number().int()) });
export type ClaimCounts = z.infer<typeof ClaimCounts>;

export const claimChannels = {
  /** Every claim you may see, whole: for tools and exports. A view reads claim:page. */
  'claim:list': { request: z.object({}).strict(), response: z.array(ClaimSummary) },
  /** A page of the claims you may see, in creation order, filtered in the store. */
  'claim:page': {
    request: z
      .object({
        status: ClaimStatus.optional(),
        /** Only claims whose support projection is not ELIGIBLE or that wait for revalidation. */
        unsettled: z.boolean().optional(),
        /** Only claims whose support projection is this one (PENDING_REVALIDATION: what a revocation just touched). */
        projection: SupportProjection.optional(),
        /** Case-insensitive match on claim id and statement. */
        text: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(200).default(50),
        /** The nextCursor of the page before, asked with the same filters. */
        after: z.string().max(1000).optional(),
        counts: z.boolean().default(false),
      })
      .strict(),
    response: z.object({ items: z.array(ClaimSummary), nextCursor: z.string().nullable(), counts: ClaimCounts.optional() }),
  },
  'claim:get': { request: z.object({ claimId: Id }).strict(), response: ClaimDetail },
  'claim:create': {
    request: z
      .object({
        claimId: ChosenName.optional(),
        statement: z.string().trim().min(1).max(2000),
        scope: z.array(z.string().min(1).max(512)).max(100).default([]),
        policy: ClaimPolicySchema.default({ minIndependentSources: 1, requiredKinds: [], quorumSize: null }),
        tenant: z.string().min(1).max(512),
        classification: Classification,
      })
      .strict(),
    response: ClaimDetail,
  },
  'claim:markUnresolved': {
    request: z.object({ claimId: Id, reason: z.string().trim().min(1, 'a reason is required').max(4000) }).strict(),
    response: ClaimDetail,
  },
  'claim:clearUnresolved': {
    request: z.object({ claimId: Id, reason: z.string().trim().min(1, 'a reason is required').max(4000) }).strict(),
    response: ClaimDetail,
  },
  /** Takes a revision out of a claim's basis: a new claim generation without it, receipted with the reason. */
  'claim:unbind': {
    request: z.object({ claimId: Id, revisionId: RevisionId, reason: z.string().trim().min(1, 'a reason is required').max(4000) }).strict(),
    response: ClaimDetail,
  },
  'claim:bind': {
    request: z
      .object({
        claimId: Id,
        revisionId: RevisionId,
        relation: Relation,
        role: BindingRole,
        rationale: z.string().max(4000).default(''),
      })
      .strict(),
    response: BindingView,
  },
} as const;
