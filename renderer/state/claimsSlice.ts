import { call } from '../bridge';
import { actionErrorOf, isGone, messageOf } from './actionError';
import type { ClaimDetail } from '../../shared/ipc/channels/claims';
import type { ClaimsSlice, Slice } from './types';

const inFlight = new Set<string>();
/** Details kept (and refreshed with the list): the claims opened most recently. */
const KEPT_DETAILS = 20;
const newest = (details: Record<string, ClaimDetail>): Record<string, ClaimDetail> => Object.fromEntries(Object.entries(details).slice(-KEPT_DETAILS));

/**
 * claim:get of each id, settled one by one: one unreadable claim must not hide the others. A
 * claim gone from view (NOT_FOUND: another clearance, or the case changed) is no failure.
 */
async function claimDetailsOf(claimIds: readonly string[]): Promise<{ details: ClaimDetail[]; failure: unknown }> {
  const settled = await Promise.allSettled(claimIds.map((claimId) => call('claim:get', { claimId })));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !isGone(r.reason));
  return { details: settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])), failure: failed?.reason };
}

export const createClaimsSlice: Slice<ClaimsSlice> = (set, get) => ({
  claimDetails: {},
  claimsError: null,
  // Details only of the claims a view has open, read again here so an open detail never shows the
  // claim as it was before an action.
  refreshClaimDetails: async () => {
    const { details, failure } = await claimDetailsOf(Object.keys(get().claimDetails));
    set({ claimDetails: Object.fromEntries(details.map((d) => [d.claimId, d])), claimsError: failure === undefined ? null : messageOf(failure) });
  },
  ensureClaimDetails: async (claimIds) => {
    const missing = [...new Set(claimIds)].filter((id) => !get().claimDetails[id] && !inFlight.has(id));
    if (missing.length === 0) return;
    missing.forEach((id) => inFlight.add(id));
    const { details, failure } = await claimDetailsOf(missing);
    missing.forEach((id) => inFlight.delete(id));
    set((s) => ({
      claimDetails: newest({ ...s.claimDetails, ...Object.fromEntries(details.map((d) => [d.claimId, d])) }),
      ...(failure === undefined ? {} : { claimsError: messageOf(failure) }),
    }));
  },
  markUnresolved: async (claimId, reason) => {
    try {
      await call('claim:markUnresolved', { claimId, reason });
    } catch (err) {
      return actionErrorOf(err);
    }
    await get().refreshAll();
    return null;
  },
});
