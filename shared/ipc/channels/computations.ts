import { z } from 'zod';
import { Id, RevisionId } from '../../domain/schemas';

export const ComputationInput = z.object({
  /** The name the expression uses: [A-Za-z_][A-Za-z0-9_]{0,63}. */
  name: z.string().min(1).max(64),
  revisionId: RevisionId,
  /** The text quoted from the revision's content, exactly (a number, a size, a time). */
  quote: z.string().min(1).max(200),
  /** Where the quote starts in the content; needed only when the quote appears more than once. */
  start: z.number().int().min(0).optional(),
  /** A unit for a bare number ("22" read as MB); a quoted unit is converted into it. */
  unit: z.string().min(1).max(8).optional(),
});

export const ComputationView = z.object({
  computationId: z.string(),
  claimId: z.string(),
  generation: z.number().int(),
  question: z.string(),
  expression: z.string(),
  inputs: z.array(
    z.object({ name: z.string(), revisionId: z.string(), start: z.number().int(), end: z.number().int(), quote: z.string(), quoteSha256: z.string(), unit: z.string().nullable(), value: z.string() }),
  ),
  result: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /**
   * CURRENT: every input's evidence is usable now. FENCED: an input's evidence was revoked,
   * superseded, quarantined, disputed or derives from such (pending revalidation, like any
   * dependent). HISTORICAL: made for an earlier generation of the claim.
   */
  state: z.enum(['CURRENT', 'FENCED', 'HISTORICAL']),
  reasons: z.array(z.string()),
});
export type ComputationView = z.infer<typeof ComputationView>;

export const computationChannels = {
  /**
   * Records a computation on a claim (seed 004: let the computation answer the quantity question):
   * an expression in the computation language over named inputs, each quoted from an exact span of
   * evidence bound to the claim, and the result it gives. Receipted; verify recomputes it. It
   * answers a quantity, never a permission: no status follows from it.
   */
  'computation:create': {
    request: z
      .object({
        claimId: Id,
        /** What it answers, e.g. "batches needed to send 12,400 records". */
        question: z.string().min(1).max(500),
        expression: z.string().min(1).max(2000),
        inputs: z.array(ComputationInput.strict()).min(1).max(32),
      })
      .strict(),
    response: ComputationView,
  },
  /** The claim's computations you may see (all their inputs within your clearance), newest first. */
  'computation:list': {
    request: z.object({ claimId: Id }).strict(),
    response: z.object({ computations: z.array(ComputationView), hidden: z.number().int() }),
  },
} as const;
