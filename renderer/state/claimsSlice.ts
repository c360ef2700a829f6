import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import type { ClaimsSlice, Slice } from './types';

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
