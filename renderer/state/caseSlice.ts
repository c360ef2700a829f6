import { call } from '../bridge';
import { messageOf } from './actionError';
import { GRAPH_START } from './graphSlice';
import type { CaseSlice, Slice } from './types';

export const createCaseSlice: Slice<CaseSlice> = (set, get) => ({
  caseInfo: null,
  refreshes: 0,
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
      set({ caseError: null, finalizeOutcome: null, headCheck: null, selectedReviewClaim: null, reviews: {}, whatIfRevisions: [], lastDrill: null, ...GRAPH_START });
      await get().refreshAll();
    } catch (err) {
      set({ caseError: messageOf(err) });
    }
  },
  createCase: async (request) => {
    try {
      await call('case:create', request);
      set({ caseError: null, finalizeOutcome: null, headCheck: null, selectedReviewClaim: null, reviews: {}, whatIfRevisions: [], lastDrill: null, ...GRAPH_START });
      await get().refreshAll();
      return true;
    } catch (err) {
      set({ caseError: messageOf(err) });
      return false;
    }
  },
  unlockError: null,
  unlock: async (actorId, passphrase) => {
    try {
      await call('actor:unlock', { actorId, passphrase });
    } catch (err) {
      // A wrong passphrase keeps the window locked; say why next to the form.
      set({ unlockError: messageOf(err) });
      return false;
    }
    // Another reviewer may be refused what the last one was answered: drop the last answers.
    set({ unlockError: null, finalizeOutcome: null, headCheck: null, selectedReviewClaim: null, reviews: {}, whatIfRevisions: [], lastDrill: null, ...GRAPH_START });
    await get().refreshAll();
    return true;
  },
  lock: async () => {
    try {
      await call('actor:lock', {});
    } finally {
      set({ finalizeOutcome: null, headCheck: null, selectedReviewClaim: null, reviews: {}, whatIfRevisions: [], lastDrill: null, ...GRAPH_START });
      await get().loadCase();
    }
  },
  refreshAll: async () => {
    await get().loadCase();
    // Locked: nothing else may be read until a reviewer unlocks this window.
    if (!get().caseInfo?.actor) return;
    await Promise.all([get().refreshRevisionDetails(), get().loadEvidenceQueue(), get().refreshClaimDetails(), get().loadGraph(), get().loadAudit(), get().refreshReviews(), get().loadGate()]);
    set((s) => ({ refreshes: s.refreshes + 1 }));
  },
});
