import { z } from 'zod';
import { EvidenceKind, LifecycleState } from '../../domain/enums';
import { Id } from '../../domain/schemas';

export const TimelineEvent = z.object({
  /** When it happened: observed time for evidence, the change's or decision's own time otherwise. */
  at: z.string(),
  /** Orders events at the same instant; with `at`, the page cursor. */
  key: z.string(),
  type: z.enum(['observed', 'lifecycle', 'proposed', 'decided']),
  revisionId: z.string().nullable(),
  claimId: z.string().nullable(),
  /** Lineage title for evidence events, the claim statement for decisions. */
  title: z.string(),
  kind: EvidenceKind.nullable(),
  /** The revision's state now (observed), the state it moved to (lifecycle); null for decisions. */
  state: LifecycleState.nullable(),
  /** Source type, lifecycle reason, or verdict and rationale. */
  detail: z.string(),
  actor: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const timelineChannels = {
  /**
   * The case as it happened: evidence by observed time, lifecycle changes and decisions by their
   * time, oldest first, a page at a time, within your clearance. Filters: the evidence bound to a
   * claim (and its decisions), an evidence kind, a source type; `from`/`to` bound the time.
   */
  'timeline:list': {
    request: z
      .object({
        claimId: Id.optional(),
        kind: EvidenceKind.optional(),
        sourceType: z.string().min(1).max(200).optional(),
        from: z.string().max(40).optional(),
        to: z.string().max(40).optional(),
        limit: z.number().int().min(1).max(500).default(200),
        /** nextCursor of the page before. */
        after: z.string().max(400).optional(),
      })
      .strict(),
    response: z.object({ events: z.array(TimelineEvent), nextCursor: z.string().nullable() }),
  },
} as const;
