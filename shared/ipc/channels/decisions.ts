import { z } from 'zod';
import { SupportProjection, Verdict } from '../../domain/enums';
import { Id } from '../../domain/schemas';

const Sha256 = z.string().length(64, 'expected the 64-hex-digit fingerprint shown with the decision').regex(/^[0-9a-f]{64}$/, 'expected the 64-hex-digit fingerprint shown with the decision');
const Reason = z.string().trim().min(1, 'a reason is required').max(4000);

export const DECISION_STATUSES = ['PROPOSED', 'APPROVED', 'REJECTED', 'WITHDRAWN'] as const;
export const DecisionStatus = z.enum(DECISION_STATUSES);

export const DecisionView = z.object({
  decisionId: z.string(),
  claimId: z.string(),
  generation: z.number().int(),
  verdict: Verdict,
  rationale: z.string(),
  /** Exact revision refs the decision rests on that you may see; the others are only counted. */
  evidenceRefs: z.array(z.string()),
  hiddenEvidenceRefs: z.number().int(),
  computationRefs: z.array(z.string()),
  /** SHA-256 over the claim id and generation, verdict, sorted evidence and computation refs. */
  fingerprint: z.string(),
  status: DecisionStatus,
  proposedBy: z.string(),
  proposedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  /** The fingerprint still matches the claim's current generation and bindings. */
  current: z.boolean(),
  /** What moved since the decision was made, when it is not current. */
  changes: z.array(z.string()),
  /** This is the approved decision in force for its claim (the latest approval). */
  effective: z.boolean(),
  /** While current: the support projection of what it rests on (DESIGN §3.5). PENDING_REVALIDATION
   * from the commit of a revoke or supersede of its evidence until the worker recomputed it. */
  projection: SupportProjection.optional(),
  pendingRevalidation: z.boolean().optional(),
});
export type DecisionView = z.infer<typeof DecisionView>;

export const decisionChannels = {
  'decision:propose': {
    request: z
      .object({
        claimId: Id,
        verdict: Verdict,
        rationale: z.string().trim().min(1, 'a rationale is required').max(8000),
        /** Refs of computations (queries, scripts, notebooks) the verdict relies on. */
        /** Computation records of this claim (cmp-…, checked: they must be CURRENT) or external refs (a query id, a notebook). */
        computationRefs: z.array(z.string().min(1).max(500)).max(100).default([]),
      })
      .strict(),
    response: DecisionView,
  },
  'decision:approve': {
    request: z
      .object({
        decisionId: Id,
        /** The fingerprint of the decision as you reviewed it; a stale one is refused (CONFLICT). */
        fingerprint: Sha256,
        note: z.string().trim().max(4000).optional(),
      })
      .strict(),
    response: DecisionView,
  },
  'decision:reject': {
    request: z.object({ decisionId: Id, reason: Reason }).strict(),
    response: DecisionView,
  },
  'decision:withdraw': {
    request: z.object({ decisionId: Id, reason: Reason }).strict(),
    response: DecisionView,
  },
  /** Read-only: answers the decision if `fingerprint` is its fingerprint and still current, else CONFLICT. */
  'decision:verify': {
    request: z.object({ decisionId: Id, fingerprint: Sha256 }).strict(),
    response: DecisionView,
  },
  'decision:get': {
    request: z.object({ decisionId: Id }).strict(),
    response: DecisionView,
  },
  'decision:list': {
    request: z.object({ claimId: Id.optional(), status: DecisionStatus.optional() }).strict(),
    response: z.object({ items: z.array(DecisionView) }),
  },
} as const;
