import { z } from 'zod';
import { ClaimStatus, LifecycleState, SupportProjection } from '../../domain/enums';
import { Id } from '../../domain/schemas';

/** A claim the pretended loss reaches, before and after (within the reader's clearance). */
export const WhatIfClaim = z.object({
  claimId: z.string(),
  statement: z.string(),
  statusBefore: ClaimStatus,
  statusAfter: ClaimStatus,
  projectionBefore: SupportProjection,
  projectionAfter: SupportProjection,
  /** The decision in force, when there is one. */
  decisionId: z.string().nullable(),
  /** Revoking would open a remediation of that decision (it would go pending revalidation). */
  opensRemediation: z.boolean(),
  /** The claim's bound revisions that would be lost: the pretended ones and those derived from them. */
  lost: z.array(z.string()),
});
export type WhatIfClaim = z.infer<typeof WhatIfClaim>;

/** Something whose loss alone would change a claim's status. */
export const PointOfFailure = z.object({
  /** A revision id, or an original source key (`source:<ref>` or a PROV source). */
  ref: z.string(),
  /** bound: the claim binds it; derivedFrom: bound evidence derives from it (PROV); source: bound evidence traces to it. */
  kind: z.enum(['bound', 'derivedFrom', 'source']),
  title: z.string(),
  statusAfter: ClaimStatus,
  /** The bound revisions that would be lost with it. */
  lost: z.array(z.string()),
});
export type PointOfFailure = z.infer<typeof PointOfFailure>;

export const CasePointOfFailure = z.object({
  ref: z.string(),
  kind: z.enum(['revision', 'source']),
  title: z.string(),
  /** Claims whose status it alone would change. */
  claims: z.number().int(),
  /** Of those, claims with a decision in force. */
  decidedClaims: z.number().int(),
  /** The first claims it would flip (decided first). */
  sample: z.array(z.object({ claimId: z.string(), statusBefore: ClaimStatus, statusAfter: ClaimStatus, decided: z.boolean() })),
});
export type CasePointOfFailure = z.infer<typeof CasePointOfFailure>;

export const whatIfChannels = {
  /**
   * Pretend `revisionIds` revoked and answer what would change, writing nothing: each claim the
   * loss reaches (bound to them or to evidence derived from them), its status and support
   * projection before and after, and the decisions that would go pending revalidation. The same
   * rules as the real revocation decide it (status derivation, staleness, remediation).
   */
  'whatIf:revoke': {
    request: z.object({ revisionIds: z.array(Id).min(1).max(100) }).strict(),
    response: z.object({
      revisions: z.array(z.object({ revisionId: z.string(), title: z.string(), state: LifecycleState })),
      /** Visible revisions derived from them, which would be stale. */
      derived: z.array(z.string()),
      claimsReached: z.number().int(),
      statusChanges: z.number().int(),
      remediations: z.number().int(),
      /** Computations on the claims reached with an input among the revisions lost: they would be FENCED. */
      computations: z.array(z.object({ computationId: z.string(), claimId: z.string(), question: z.string() })),
      /** Claims reached, changed ones first; at most 500. */
      claims: z.array(WhatIfClaim),
    }),
  },
  /** The single points of failure of one claim: each item whose loss alone would change its status. */
  'whatIf:claim': {
    request: z.object({ claimId: Id }).strict(),
    response: z.object({ claimId: z.string(), status: ClaimStatus, points: z.array(PointOfFailure) }),
  },
  /**
   * The case's single points of failure: items whose loss alone would change the status of at
   * least one claim, most decided claims flipped first, a page at a time.
   */
  'whatIf:case': {
    request: z
      .object({ limit: z.number().int().min(1).max(500).default(100), offset: z.number().int().min(0).max(1_000_000).default(0) })
      .strict(),
    response: z.object({ total: z.number().int(), claimsWithPoints: z.number().int(), items: z.array(CasePointOfFailure) }),
  },
} as const;
