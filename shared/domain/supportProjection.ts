import type { BindingRole, SupportProjection } from './enums';

/**
 * Support projection of a target (DESIGN §3.5, seed 001): does the target's current evidence set
 * still satisfy what it was bound for? It is separate from the claim's status (what the usable
 * evidence says) and from the evidence lifecycle (what happened to one revision): a claim can be
 * SUPPORTED by what is left while its projection says a REQUIRED revision it rested on is gone.
 *
 * The binding role is the contract: losing a REQUIRED revision blocks the target, losing a
 * SUPPORTING one leaves it partially supported, CONTEXT never matters. A revision derived from a
 * fenced one (PROV wasDerivedFrom) is neither usable nor unusable until someone looks again, so
 * it makes the target PENDING_REVALIDATION.
 */
export interface ProjectionBinding {
  revisionRef: string;
  role: BindingRole;
  /** usability() of the revision in the target's context (fence excluded; see `stale`). */
  usable: boolean;
  /** The failing usability conjuncts, for the reasons. */
  unusableBecause: readonly string[];
  /** Derived from a revoked or superseded revision: needs revalidation. */
  stale: boolean;
}

export interface ProjectionResult {
  projection: SupportProjection;
  reasons: string[];
}

/** How a revision is named in reasons; callers pass one that hides revisions outside the viewer's clearance. */
export type NameRevision = (revisionRef: string) => string;

/**
 * `shortfall`: what the claim's policy lacks when its status, derived from the same usable
 * evidence, is INSUFFICIENT (claimStatus.ts). ELIGIBLE means both that nothing the target was
 * bound to has been lost and that what it has meets its policy; a claim with every binding usable
 * but too few independent sources is PARTIALLY_SUPPORTED, never ELIGIBLE beside INSUFFICIENT.
 */
export function supportProjection(bindings: readonly ProjectionBinding[], name: NameRevision = (r) => r, shortfall: readonly string[] = []): ProjectionResult {
  const counted = bindings.filter((b) => b.role !== 'CONTEXT');
  const stale = counted.filter((b) => b.stale);
  const requiredLost = counted.filter((b) => !b.stale && b.role === 'REQUIRED' && !b.usable);
  const supportingLost = counted.filter((b) => !b.stale && b.role === 'SUPPORTING' && !b.usable);
  const lost = (b: ProjectionBinding) => `${b.role} ${name(b.revisionRef)} is not usable (${b.unusableBecause.join('; ') || 'unknown reason'})`;
  // Sorted so the result does not depend on binding order.
  const reasons = [
    ...stale.map((b) => `${b.role} ${name(b.revisionRef)} is derived from revoked or superseded evidence and needs revalidation`),
    ...requiredLost.map(lost),
    ...supportingLost.map(lost),
  ].sort();
  if (stale.length > 0) return { projection: 'PENDING_REVALIDATION', reasons };
  if (requiredLost.length > 0) return { projection: 'BLOCKED', reasons };
  if (supportingLost.length > 0) return { projection: 'PARTIALLY_SUPPORTED', reasons: [...reasons, ...shortfall.map(policyShort)] };
  if (shortfall.length > 0) return { projection: 'PARTIALLY_SUPPORTED', reasons: shortfall.map(policyShort) };
  const n = counted.length;
  return {
    projection: 'ELIGIBLE',
    reasons: [n === 0 ? 'no REQUIRED or SUPPORTING evidence is bound; nothing to lose' : `all ${n} REQUIRED and SUPPORTING revision${n === 1 ? ' is' : 's are'} usable`],
  };
}

const policyShort = (why: string): string => `the usable evidence does not meet the claim's policy: ${why}`;

/** Reason shown while a fence has committed and the worker has not recomputed the target yet. */
export function pendingReason(revisionName: string, cause: string): string {
  return `evidence it rests on (${revisionName}) ${cause === 'DERIVED' ? 'is derived from evidence taken out of normal flows (revoked, superseded, quarantined or disputed)' : `was ${cause}`}; revalidation is pending`;
}

/**
 * A projection that unsettles a claim whatever its decision says (revoked, superseded or fenced
 * evidence behind it), or null when the claim is ELIGIBLE on its evidence. The Review and
 * Remediations queues flag the claims it names; claim:page filters on it.
 */
export function unsettledProjection(projection: SupportProjection | undefined): SupportProjection | null {
  return projection !== undefined && projection !== 'ELIGIBLE' ? projection : null;
}
