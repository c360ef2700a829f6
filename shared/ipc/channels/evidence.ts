import { z } from 'zod';
import { EvidenceKind, LifecycleState } from '../../domain/enums';
import { Id, RevisionDetail, RevisionId, RevisionSummary, ValidityContext } from '../../domain/schemas';

export const ScreeningResult = z.object({
  flagged: z.boolean(),
  matches: z.array(z.object({ patternId: z.string(), reason: z.string(), excerpt: z.string() })),
});

const Content = z.string().max(1_000_000, 'evidence content is limited to 1,000,000 characters');
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');
const Reason = z.string().trim().min(1, 'a reason is required').max(4000);

export const evidenceChannels = {
  'evidence:list': {
    request: z
      .object({
        state: LifecycleState.optional(),
        kind: EvidenceKind.optional(),
        limit: z.number().int().min(1).max(200).default(50),
        after: z.string().optional(),
      })
      .strict(),
    response: z.object({ items: z.array(RevisionSummary), nextCursor: z.string().nullable() }),
  },
  'evidence:get': {
    request: z.object({ revisionId: RevisionId }).strict(),
    response: RevisionDetail,
  },
  'evidence:ingest': {
    request: z
      .object({
        evidenceId: Id.optional(),
        title: z.string().min(1).max(500),
        kind: EvidenceKind,
        content: Content,
        mediaType: z.string().min(1).max(200).default('text/plain'),
        /** The hash the producer declared; a mismatch with the content quarantines the revision. */
        declaredSha256: Sha256.optional(),
        context: ValidityContext,
      })
      .strict(),
    response: z.object({
      revisionId: z.string(),
      state: LifecycleState,
      screening: ScreeningResult,
    }),
  },
  'evidence:transition': {
    request: z
      .object({
        revisionId: RevisionId,
        to: LifecycleState,
        reason: Reason,
        supportingRef: z.string().min(1).max(500).optional(),
      })
      .strict(),
    response: z.object({ revisionId: z.string(), from: LifecycleState, to: LifecycleState }),
  },
  'evidence:revise': {
    request: z
      .object({
        supersedes: RevisionId,
        content: Content,
        reason: Reason,
        declaredSha256: Sha256.optional(),
        context: ValidityContext.partial().optional(),
      })
      .strict(),
    response: z.object({
      revisionId: z.string(),
      state: LifecycleState,
      screening: ScreeningResult,
    }),
  },
} as const;
