import type { ClaimPolicy } from '../../../shared/domain/claimStatus';
import type { Classification } from '../../../shared/domain/enums';
import type { Actor, ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
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

/** The ids of every claim the actor may see, in creation order (the order claim:list gives). */
export function visibleClaimIds(ctx: ServiceContext): string[] {
  const acl = aclFilter(ctx.actor, 'c');
  return ctx.db.prepare(`SELECT c.claim_id FROM claim c WHERE ${acl.sql} ORDER BY c.created_at, c.claim_id`).pluck().all(...acl.params) as string[];
}

/** Every claim the actor may see, as a claim set (claimMemo.ts): ids in creation order, rows on demand. */
export function visibleClaims(ctx: ServiceContext): { ids: () => string[]; rows: (ids: readonly string[]) => ClaimRow[] } {
  return { ids: () => visibleClaimIds(ctx), rows: (ids) => visibleClaimRowsIn(ctx, ids) };
}

/** The claims among `claimIds` the actor may see, in creation order (others are left out, never named). */
export function visibleClaimRowsIn(ctx: ServiceContext, claimIds: readonly string[]): ClaimRow[] {
  const q = visibleClaimsInQuery(ctx.actor, claimIds);
  return ctx.db.prepare(q.sql).all(...q.params) as ClaimRow[];
}

/** visibleClaimRowsIn's query: each claim by its key, the clearance a filter (never the ACL index). */
export function visibleClaimsInQuery(actor: Actor, claimIds: readonly string[]): { sql: string; params: string[] } {
  const acl = aclFilter(actor, 'c', { useIndex: false });
  return {
    sql: `SELECT * FROM claim c WHERE c.claim_id IN (SELECT value FROM json_each(?)) AND ${acl.sql} ORDER BY c.created_at, c.claim_id`,
    params: [JSON.stringify(claimIds), ...acl.params],
  };
}

export const policyOf = (claim: Pick<ClaimRow, 'policy'>): ClaimPolicy => JSON.parse(claim.policy) as ClaimPolicy;
export const scopeOf = (claim: Pick<ClaimRow, 'scope'>): string[] => JSON.parse(claim.scope) as string[];

/** A binding of a new claim generation. */
export interface GenerationBinding {
  revisionId: string;
  relation: string;
  role: string;
  rationale: string;
}

/**
 * Moves a claim to its next generation with these bindings (a generation's bindings are never
 * edited: changing them is a new generation, and decisions fingerprinted on the old one go stale).
 * Compare-and-swap on the generation read; answers the new generation.
 */
export function writeGeneration(ctx: ServiceContext, channel: string, claimId: string, generation: number, bindings: readonly GenerationBinding[]): number {
  const db = ctx.db;
  const moved = db.prepare('UPDATE claim SET generation = ? WHERE claim_id = ? AND generation = ?').run(generation + 1, claimId, generation).changes;
  if (moved !== 1) throw conflict(`${channel}: claim ${claimId} changed generation while you were deciding; reload and try again`);
  const insert = db.prepare(
    `INSERT INTO claim_binding (claim_id, generation, revision_id, relation, role, rationale, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const b of bindings) insert.run(claimId, generation + 1, b.revisionId, b.relation, b.role, b.rationale, ctx.actor.actorId, ctx.now());
  return generation + 1;
}
