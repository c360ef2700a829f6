import type { ClaimSummary } from '../../shared/domain/schemas';
import type { ClaimDetail } from '../../shared/ipc/channels/claims';
import type { DecisionView } from '../../shared/ipc/channels/decisions';
import type { RequestOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { actionErrorOf, messageOf, type ActionError, type Slice } from './slice';

export interface ClaimsSlice {
  claims: ClaimSummary[];
  claimDetails: Record<string, ClaimDetail>;
  claimsError: string | null;
  /** Decisions per claim, fetched when a view shows that claim's outcome. */
  decisions: Record<string, DecisionView[]>;
  loadClaims: () => Promise<void>;
  loadDecisions: (claimId: string) => Promise<void>;
  /** Proposes a verdict with its rationale; another reviewer approves it (four eyes). */
  proposeDecision: (request: RequestOf<'decision:propose'>) => Promise<ActionError | null>;
  /** Records that the claim cannot be decided: its status becomes UNRESOLVED. */
  markUnresolved: (claimId: string, reason: string) => Promise<ActionError | null>;
}

export const createClaimsSlice: Slice<ClaimsSlice> = (set, get) => ({
  claims: [],
  claimDetails: {},
  claimsError: null,
  decisions: {},
  loadClaims: async () => {
    try {
      const claims = await call('claim:list', {});
      const details = await Promise.all(claims.map((c) => call('claim:get', { claimId: c.claimId })));
      set({ claims, claimDetails: Object.fromEntries(details.map((d) => [d.claimId, d])), claimsError: null });
      // Decisions already on screen go stale with the claims they rest on (fingerprints, status).
      await Promise.all(Object.keys(get().decisions).filter((id) => claims.some((c) => c.claimId === id)).map((id) => get().loadDecisions(id)));
    } catch (err) {
      set({ claimsError: messageOf(err) });
    }
  },
  loadDecisions: async (claimId) => {
    try {
      const { items } = await call('decision:list', { claimId });
      set((s) => ({ decisions: { ...s.decisions, [claimId]: items } }));
    } catch (err) {
      set({ claimsError: messageOf(err) });
    }
  },
  proposeDecision: async (request) => {
    try {
      await call('decision:propose', request);
    } catch (err) {
      return actionErrorOf(err);
    }
    await get().loadDecisions(request.claimId);
    await get().refreshAll();
    return null;
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
