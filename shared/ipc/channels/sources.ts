import { z } from 'zod';
import { Classification } from '../../domain/enums';
import { ChosenName, Id } from '../../domain/schemas';

export const SourceSummary = z.object({
  sourceId: z.string(),
  title: z.string(),
  mediaType: z.string(),
  contentSha256: z.string(),
  length: z.number().int(),
  tenant: z.string(),
  classification: Classification,
  createdBy: z.string(),
  createdAt: z.string(),
});
export type SourceSummary = z.infer<typeof SourceSummary>;

export const SourceDocument = SourceSummary.extend({ content: z.string() });
export type SourceDocument = z.infer<typeof SourceDocument>;

/** Source documents evidence can quote spans of (DESIGN §3.1); stored once per compartment by hash. */
export const sourceChannels = {
  'source:add': {
    request: z
      .object({
        /** Optional stable id; by default one is derived from the hash and compartment. */
        sourceId: ChosenName.optional(),
        title: z.string().trim().min(1).max(500),
        content: z.string().min(1).max(5_000_000, 'source documents are limited to 5,000,000 characters'),
        mediaType: z.string().min(1).max(200).default('text/plain'),
        tenant: z.string().min(1).max(512),
        classification: Classification,
      })
      .strict(),
    response: z.object({
      sourceId: z.string(),
      contentSha256: z.string(),
      /** False when the same text was already stored in this compartment; its id is returned. */
      created: z.boolean(),
    }),
  },
  'source:get': {
    request: z.object({ sourceId: Id }).strict(),
    response: SourceDocument,
  },
  'source:list': {
    request: z
      .object({ limit: z.number().int().min(1).max(200).default(50), after: z.string().max(200).optional() })
      .strict(),
    response: z.object({ items: z.array(SourceSummary), nextCursor: z.string().nullable() }),
  },
} as const;
