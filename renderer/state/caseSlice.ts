import { call } from '../bridge';
import { messageOf } from './actionError';
import type { CaseSlice, Slice } from './types';

export const createCaseSlice: Slice<CaseSlice> = (set, get) => ({
  caseInfo: null,
  actors: [],
  recent: [],
  caseError: null,
  loadCase: async () => {
    try {
      const [caseInfo, actors, recent] = await Promise.all([call('case:info', {}), call('actor:list', {}), call('case:recent', {})]);
      set({ caseInfo, actors, recent: recent.cases, caseError: null });
    } catch (err) {
      set({ caseInfo: null, caseError: messageOf(err) });
    }
  },
  openCase: async (path) => {
    try {
      await call('case:open', { path });
      set({ caseError: null, finalizeOutcome: null, headCheck: null, selectedReviewClaim: null });
      await get().refreshAll();
    } catch (err) {
      set({ caseError: messageOf(err) });
    }
  },
  createCase: async (request) => {
    try {
      await call('case:create', request);
      set({ caseError: null, finalizeOutcome: null, headCheck: null, selectedReviewClaim: null });
      await get().refreshAll();
      return true;
    } catch (err) {
      set({ caseError: messageOf(err) });
      return false;
    }
  },
  selectActor: async (actorId) => {
    try {
      await call('actor:select', { actorId });
    } catch (err) {
      // A refused switch keeps the current actor; say why instead of failing silently.
      set({ caseError: messageOf(err) });
      return;
    }
    // Another actor may be refused what this one was answered: drop the last answers of the session.
    set({ finalizeOutcome: null, headCheck: null });
    await get().refreshAll();
  },
  refreshAll: async () => {
    await get().loadCase();
    await Promise.all([get().loadEvidence(), get().loadClaims(), get().loadAudit(), get().loadReviews(), get().loadGate()]);
  },
});
