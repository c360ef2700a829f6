import type { ClaimSummary } from '../../shared/domain/schemas';
import type { ClaimDetail } from '../../shared/ipc/channels/claims';
import { call } from '../bridge';
import { messageOf, type Slice } from './slice';

export interface ClaimsSlice {
  claims: ClaimSummary[];
  claimDetails: Record<string, ClaimDetail>;
  claimsError: string | null;
  loadClaims: () => Promise<void>;
}

export const createClaimsSlice: Slice<ClaimsSlice> = (set) => ({
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
});
