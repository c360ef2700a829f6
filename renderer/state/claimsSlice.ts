import type { ClaimSummary } from '../../shared/domain/schemas';
import type { ClaimDetail } from '../../shared/ipc/channels/claims';
import { call } from '../bridge';
import { actionErrorOf, messageOf, type ActionError, type Slice } from './slice';

export interface ClaimsSlice {
  claims: ClaimSummary[];
  claimDetails: Record<string, ClaimDetail>;
  claimsError: string | null;
  loadClaims: () => Promise<void>;
  /** Records that the claim cannot be decided: its status becomes UNRESOLVED. */
  markUnresolved: (claimId: string, reason: string) => Promise<ActionError | null>;
}

export const createClaimsSlice: Slice<ClaimsSlice> = (set, get) => ({
  claims: [],
  claimDetails: {},
  claimsError: null,
  loadClaims: async () => {
    try {
      const claims = await call('claim:list', {});
      const details = await Promise.all(claims.map((c) => call('claim:get', { claimId: c.claimId })));
      set({ claims, claimDetails: Object.fromEntries(details.map((d) => [d.claimId, d])), claimsError: null });
    } catch (err) {
      set({ claimsError: messageOf(err) });
    }
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
