import { z } from 'zod';
import { BindingRole, FenceCause, LifecycleState, Relation, SupportProjection, Verdict } from '../../domain/enums';
import { RevisionId } from '../../domain/schemas';

const Reason = z.string().trim().min(1, 'a reason is required').max(4000);
const RemediationId = z.number().int().min(1);
/** The projection version the reviewer looked at; a recomputed projection refuses the action (CONFLICT). */
const ExpectedVersion = z.number().int().min(0);

export const RESOLUTIONS = ['RETAINED', 'REREVIEW', 'WITHDRAWN'] as const;

export const SuccessorCandidate = z.object({
  revisionId: z.string(),
  revision: z.number().int(),
  state: LifecycleState,
  usable: z.boolean(),
  /** Why it cannot be retained on, when it is not usable. */
  reasons: z.array(z.string()),
});

export const AffectedBindingView = z.object({
  bindingId: z.number().int(),
  revisionId: z.string(),
  title: z.string(),
  role: BindingRole,
  relation: Relation,
  state: LifecycleState,
  /** REVOKED / SUPERSEDED / QUARANTINED / DISPUTED: the revision itself; DERIVED: evidence it was derived from. */
  why: FenceCause,
  fenceId: z.number().int(),
  /** Later revisions of the same lineage you may see: the only revisions that can inherit the review. */
  successors: z.array(SuccessorCandidate),
});

export const RemediationBindingView = z.object({
  bindingId: z.number().int(),
  generation: z.number().int(),
  revisionId: z.string(),
  role: BindingRole,
  relation: Relation,
  state: LifecycleState,
  affected: z.boolean(),
  /** A binding of an earlier claim generation: kept as history, no longer in force. */
  historical: z.boolean(),
});

export const RemediationCause = z.object({
  fenceId: z.number().int(),
  revisionId: z.string(),
  cause: FenceCause,
  reason: z.string(),
  actor: z.string(),
  fencedAt: z.string(),
  supportingRef: z.string().nullable(),
});

export const RemediationView = z.object({
  remediationId: z.number().int(),
  claimId: z.string(),
  statement: z.string(),
  status: z.enum(['OPEN', 'RESOLVED']),
  /** Who must act: the reviewer who approved the decision. */
  owner: z.string(),
  openedAt: z.string(),
  openedOnGeneration: z.number().int(),
  currentGeneration: z.number().int(),
  decision: z.object({ decisionId: z.string(), verdict: Verdict, rationale: z.string(), proposedBy: z.string(), decidedBy: z.string().nullable() }),
  /** The projection the claim left ELIGIBLE for, when the remediation opened. */
  openedProjection: SupportProjection,
  projection: SupportProjection,
  pendingRevalidation: z.boolean(),
  projectionReasons: z.array(z.string()),
  /** Send it back as expectedProjectionVersion with an action. */
  projectionVersion: z.number().int(),
  causes: z.array(RemediationCause),
  /** Causes on revisions outside your clearance: counted, never named. */
  hiddenCauses: z.number().int(),
  affected: z.array(AffectedBindingView),
  hiddenAffected: z.number().int(),
  bindings: z.array(RemediationBindingView),
  hiddenBindings: z.number().int(),
  convergence: z.object({ openJobs: z.number().int(), converged: z.number().int(), total: z.number().int().nullable() }),
  /** Whether you may resolve it, and why not (four eyes, role, clearance). */
  canResolve: z.boolean(),
  cannotResolveBecause: z.string().nullable(),
  resolution: z.enum(RESOLUTIONS).nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolutionReason: z.string().nullable(),
  newGeneration: z.number().int().nullable(),
  carriedDecisionId: z.string().nullable(),
});
export type RemediationView = z.infer<typeof RemediationView>;

export const remediationChannels = {
  'remediation:list': {
    request: z.object({ status: z.enum(['OPEN', 'RESOLVED']).optional() }).strict(),
    response: z.object({ items: z.array(RemediationView) }),
  },
  'remediation:get': {
    request: z.object({ remediationId: RemediationId }).strict(),
    response: RemediationView,
  },
  /**
   * The decision stands on successor revision(s) of the same lineage: new bindings for a new claim
   * generation, the decision carried over to it, no change to the claim's content.
   */
  'remediation:retainCurrentRevision': {
    request: z
      .object({
        remediationId: RemediationId,
        successors: z.array(RevisionId).min(1, 'name at least one successor revision').max(100),
        expectedProjectionVersion: ExpectedVersion,
        reason: Reason,
      })
      .strict(),
    response: RemediationView,
  },
  /** The claim goes back to review: a new generation without the revoked evidence, no decision in force. */
  'remediation:requestRereview': {
    request: z.object({ remediationId: RemediationId, expectedProjectionVersion: ExpectedVersion, reason: Reason }).strict(),
    response: RemediationView,
  },
  /** The decision is withdrawn: it stays as history, the claim moves to a new generation with no decision. */
  'remediation:withdraw': {
    request: z.object({ remediationId: RemediationId, expectedProjectionVersion: ExpectedVersion, reason: Reason }).strict(),
    response: RemediationView,
  },
} as const;
