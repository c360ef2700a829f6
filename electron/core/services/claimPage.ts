import { CLAIM_STATUSES } from '../../../shared/domain/enums';
import { unsettledProjection } from '../../../shared/domain/supportProjection';
import type { ClaimSummary } from '../../../shared/domain/schemas';
import type { ClaimCounts } from '../../../shared/ipc/channels/claims';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import type { ServiceContext } from '../context';
import { invalid } from '../errors';
import { listClaims } from './claims';

type PageRequest = ParsedRequestOf<'claim:page'>;


function matchesText(c: ClaimSummary, text: string | undefined): boolean {
  if (!text) return true;
  const needle = text.toLowerCase();
  return c.claimId.toLowerCase().includes(needle) || c.statement.toLowerCase().includes(needle);
}

function countsOf(claims: readonly ClaimSummary[]): ClaimCounts {
  const byStatus = Object.fromEntries(CLAIM_STATUSES.map((s) => [s, 0])) as ClaimCounts['byStatus'];
  for (const c of claims) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
  return { total: claims.length, byStatus };
}

/**
 * claim:page: a page of the claims the actor may see, in creation order, filtered by status,
 * projection (unsettled, or one projection) and words of the id or statement. Statuses are derived, not stored: the
 * filter runs over the summaries claimMemo.ts keeps between reads (derived again only for claims
 * a change touched), so a page of a 10,000-claim case costs the ids read and the page's answer.
 * The cursor is the last claim id of the page before; one the actor cannot see is refused.
 */
export function claimPage(ctx: ServiceContext, req: PageRequest): ResponseOf<'claim:page'> {
  const all = listClaims(ctx);
  let from = 0;
  if (req.after !== undefined) {
    const at = all.findIndex((c) => c.claimId === req.after);
    if (at < 0) {
      throw invalid('claim:page: after is not a claim you may see; pass back the nextCursor of the page before', [{ path: ['after'], message: 'expected the nextCursor of the page before' }]);
    }
    from = at + 1;
  }
  const filtered = (c: ClaimSummary) =>
    matchesText(c, req.text) && (!req.unsettled || unsettledProjection(c.projection) !== null) && (req.projection === undefined || c.projection === req.projection);
  const items: ClaimSummary[] = [];
  let more = false;
  for (let i = from; i < all.length; i++) {
    const c = all[i]!;
    if (!filtered(c) || (req.status !== undefined && c.status !== req.status)) continue;
    if (items.length === req.limit) {
      more = true;
      break;
    }
    items.push(c);
  }
  return {
    items,
    nextCursor: more ? items[items.length - 1]!.claimId : null,
    ...(req.counts ? { counts: countsOf(all.filter(filtered)) } : {}),
  };
}
