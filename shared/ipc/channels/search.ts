import { z } from 'zod';
import { LifecycleState } from '../../domain/enums';

export const SearchHit = z.object({
  kind: z.enum(['evidence', 'claim']),
  /** revision id for evidence, claim id for claims. */
  id: z.string(),
  /** Lineage title for evidence, the statement for claims. */
  title: z.string(),
  /** Plain text around the match; never markup. */
  snippet: z.string(),
  state: LifecycleState.nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const searchChannels = {
  'search:query': {
    request: z
      .object({
        /** Words to find; FTS syntax is not interpreted (each word is matched literally, `word*` as a prefix). */
        q: z.string().max(500),
        limit: z.number().int().min(1).max(100).default(20),
        /** Also search QUARANTINED and REVOKED evidence (hidden from normal flows, DESIGN §3.1). */
        includeQuarantined: z.boolean().default(false),
      })
      .strict(),
    response: z.object({
      hits: z.array(SearchHit),
      /** Matches visible to the actor, before the limit. */
      total: z.number().int(),
    }),
  },
} as const;
