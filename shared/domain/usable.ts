import type { Classification, LifecycleState } from './enums';

/**
 * Usable(E) = Validated ∧ Authorized ∧ Fresh ∧ Applicable (DESIGN §3.1), plus the revocation fence
 * (§3.5). This is the only place the conjunction is computed; every flow that decides whether a
 * revision may be shown, bound or counted asks here, and the UI shows the returned reasons.
 * Confidence and trust tier are deliberately not inputs: they never override these gates.
 */

export const CLASSIFICATION_RANK: Record<Classification, number> = {
  public: 0,
  internal: 1,
  confidential: 2,
  restricted: 3,
};

/** A clearance tenant of '*' means every tenant. */
export const ALL_TENANTS = '*';

export interface Clearance {
  tenants: readonly string[];
  maxClassification: Classification;
}

export function isAuthorized(c: Clearance, e: { tenant: string; classification: Classification }): boolean {
  return tenantAllowed(c, e.tenant) && classificationAllowed(c, e.classification);
}

function tenantAllowed(c: Clearance, tenant: string): boolean {
  return c.tenants.includes(ALL_TENANTS) || c.tenants.includes(tenant);
}

function classificationAllowed(c: Clearance, classification: Classification): boolean {
  return CLASSIFICATION_RANK[classification] <= CLASSIFICATION_RANK[c.maxClassification];
}

export interface UsabilityInput {
  state: LifecycleState;
  tenant: string;
  classification: Classification;
  /** ISO-8601; null = effective since observed. */
  effectiveFrom: string | null;
  /** ISO-8601; null = no expiry. */
  validUntil: string | null;
  appliesTo: readonly string[];
  /** Set while the revision awaits revalidation after a related revoke (§3.5). */
  fenced?: boolean;
}

export interface UsabilityContext {
  clearance: Clearance;
  /** ISO-8601 instant the decision is made at. */
  now: string;
  /** The claim's applicability scope (assets, accounts, hosts); empty means any. */
  scope: readonly string[];
}

export const USABILITY_CONJUNCTS = ['VALIDATED', 'AUTHORIZED', 'FRESH', 'APPLICABLE', 'NOT_FENCED'] as const;
export type UsabilityConjunct = (typeof USABILITY_CONJUNCTS)[number];

export interface UsabilityReason {
  conjunct: UsabilityConjunct;
  message: string;
}

export interface Usability {
  usable: boolean;
  reasons: UsabilityReason[];
}

/** Applies-to entry meaning "every asset". */
export const APPLIES_TO_ANY = '*';

export function usability(e: UsabilityInput, ctx: UsabilityContext): Usability {
  const now = Date.parse(ctx.now);
  // A bad clock is a caller bug, not a property of the evidence; refusing loudly beats guessing.
  if (Number.isNaN(now)) throw new RangeError(`usability: now is not an ISO-8601 timestamp: ${JSON.stringify(ctx.now)}`);

  const failures: Record<UsabilityConjunct, string[]> = {
    VALIDATED: validatedFailures(e),
    AUTHORIZED: authorizedFailures(e, ctx.clearance),
    FRESH: freshFailures(e, now),
    APPLICABLE: applicableFailures(e, ctx.scope),
    NOT_FENCED: e.fenced === true ? ['fenced pending revalidation after a related revoke'] : [],
  };
  const reasons = USABILITY_CONJUNCTS.filter((c) => failures[c].length > 0).map((conjunct) => ({
    conjunct,
    message: failures[conjunct].join('; '),
  }));
  return { usable: reasons.length === 0, reasons };
}

function validatedFailures(e: UsabilityInput): string[] {
  // DISPUTED evidence was validated once but is contested now; it goes to the dispute queue, not into claims.
  return e.state === 'VALIDATED' ? [] : [`revision is ${e.state}, not VALIDATED`];
}

function authorizedFailures(e: UsabilityInput, c: Clearance): string[] {
  const out: string[] = [];
  if (!tenantAllowed(c, e.tenant)) {
    const allowed = c.tenants.length > 0 ? c.tenants.join(', ') : 'none';
    out.push(`tenant ${e.tenant} is outside clearance (tenants: ${allowed})`);
  }
  if (!classificationAllowed(c, e.classification)) {
    out.push(`classification ${e.classification} exceeds clearance ${c.maxClassification}`);
  }
  return out;
}

function freshFailures(e: UsabilityInput, now: number): string[] {
  const out: string[] = [];
  // Unparseable validity bounds fail closed: we cannot tell whether the revision is in force.
  if (e.effectiveFrom !== null) {
    const from = Date.parse(e.effectiveFrom);
    if (Number.isNaN(from)) out.push(`effective_from is not a valid timestamp: ${e.effectiveFrom}`);
    else if (from > now) out.push(`not yet effective (effective from ${e.effectiveFrom})`);
  }
  if (e.validUntil !== null) {
    const until = Date.parse(e.validUntil);
    if (Number.isNaN(until)) out.push(`valid_until is not a valid timestamp: ${e.validUntil}`);
    // valid_until is exclusive: at that instant the revision is already expired.
    else if (until <= now) out.push(`expired at ${e.validUntil}`);
  }
  return out;
}

function applicableFailures(e: UsabilityInput, scope: readonly string[]): string[] {
  if (scope.length === 0 || e.appliesTo.includes(APPLIES_TO_ANY)) return [];
  // Hostnames and account names are case-insensitive in the systems evidence comes from (AD, DNS).
  const wanted = new Set(scope.map(fold));
  if (e.appliesTo.some((a) => wanted.has(fold(a)))) return [];
  if (e.appliesTo.length === 0) return [`no applicability scope recorded; claim scope is ${scope.join(', ')}`];
  return [`applies to ${e.appliesTo.join(', ')}; none of the claim scope ${scope.join(', ')}`];
}

function fold(s: string): string {
  return s.toLowerCase();
}
