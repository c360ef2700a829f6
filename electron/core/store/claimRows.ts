import type { ClaimPolicy } from '../../../shared/domain/claimStatus';
import type { Classification } from '../../../shared/domain/enums';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { aclFilter } from './acl';

/** Row shape of the claim table; every service that reads claims uses this one. */
export interface ClaimRow {
  claim_id: string;
  statement: string;
  scope: string;
  policy: string;
  generation: number;
  tenant: string;
  classification: Classification;
  unresolved_reason: string | null;
  author: string;
  created_at: string;
}

/** A claim the actor may see; a hidden claim answers exactly like a missing one. */
export function loadVisibleClaim(ctx: ServiceContext, claimId: string, channel: string): ClaimRow {
  const acl = aclFilter(ctx.actor, 'c');
  const row = ctx.db.prepare(`SELECT * FROM claim c WHERE c.claim_id = ? AND ${acl.sql}`).get(claimId, ...acl.params) as ClaimRow | undefined;
  if (!row) throw notFound(`${channel}: no claim ${claimId} is visible to you`);
  return row;
}

/** Every claim the actor may see, in creation order. */
export function visibleClaimRows(ctx: ServiceContext): ClaimRow[] {
  const acl = aclFilter(ctx.actor, 'c');
  return ctx.db.prepare(`SELECT * FROM claim c WHERE ${acl.sql} ORDER BY c.created_at, c.claim_id`).all(...acl.params) as ClaimRow[];
}

export const policyOf = (claim: Pick<ClaimRow, 'policy'>): ClaimPolicy => JSON.parse(claim.policy) as ClaimPolicy;
export const scopeOf = (claim: Pick<ClaimRow, 'scope'>): string[] => JSON.parse(claim.scope) as string[];
