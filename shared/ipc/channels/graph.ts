import { z } from 'zod';
import { ClaimSummary, Id, RevisionId, RevisionSummary } from '../../domain/schemas';
import { ClaimReviewStanding } from './review';

/**
 * Where the graph opens: the case (its claims in list order), what is in dispute, a claim, an
 * evidence revision, or a pivot from a revision to every revision sharing its source reference or its independence group.
 */
export const GraphFocus = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('case') }).strict(),
  /** What is in dispute: MIXED claims and DISPUTED revisions. */
  z.object({ kind: z.literal('disputes') }).strict(),
  z.object({ kind: z.literal('claim'), id: Id }).strict(),
  z.object({ kind: z.literal('revision'), id: RevisionId }).strict(),
  z.object({ kind: z.literal('source'), id: RevisionId }).strict(),
  z.object({ kind: z.literal('group'), id: RevisionId }).strict(),
]);
export type GraphFocus = z.infer<typeof GraphFocus>;

/** A node of the graph by kind and id, as the view names it: `claim:<id>` or `rev:<revisionId>`. */
export const GraphNodeRef = z.string().max(200).regex(/^(claim|rev):.{1,180}$/, 'expected claim:<claimId> or rev:<revisionId>');

export const graphChannels = {
  /**
   * A neighbourhood of the case, never the whole of it: the focus, its neighbours (a claim's bound
   * evidence, the claims binding a revision) up to `hops` steps out, and the neighbours of each
   * node the analyst expanded, at most `limit` nodes. What the limit left out is counted per
   * node, so the view can offer to expand it.
   */
  'graph:neighbourhood': {
    request: z
      .object({
        focus: GraphFocus,
        hops: z.number().int().min(0).max(4).default(1),
        /** Nodes whose neighbours to add (expanded in the view), in the order they were expanded. */
        expand: z.array(GraphNodeRef).max(200).default([]),
        limit: z.number().int().min(10).max(1000).default(250),
        /** Also list evidence bound to no claim (up to 50 of it, with a count of the rest). */
        unbound: z.boolean().default(false),
      })
      .strict(),
    response: z.object({
      claims: z.array(ClaimSummary),
      /** Where each drawn claim's review stands. */
      reviews: z.array(ClaimReviewStanding),
      revisions: z.array(RevisionSummary),
      /** Per drawn node, neighbours you may see that are not drawn (left out by the limit). */
      hidden: z.record(z.string(), z.number().int().min(1)),
      /** Claims of the case you may see, and how many the 'case' focus left out. */
      totalClaims: z.number().int(),
      claimsNotShown: z.number().int(),
      /** Evidence bound to no claim that `unbound` left out. */
      unboundNotShown: z.number().int(),
      /** Items in dispute you may see, and how many the limit left out ('disputes' focus). */
      disputes: z.object({ total: z.number().int(), notShown: z.number().int() }).nullable(),
      /** For a pivot: what the revisions share, how many you may see, and how many the limit left out. */
      pivot: z.object({ by: z.enum(['source', 'group']), value: z.string().nullable(), total: z.number().int(), notShown: z.number().int() }).nullable(),
    }),
  },
} as const;
