import type { RevisionSummary } from '../../shared/domain/schemas';
import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import type { EvidenceSlice, Slice } from './types';

const PAGE = 200;

// Requests in flight, so several views asking for the same revision at once cost one call.
const inFlight = new Set<string>();

export const createEvidenceSlice: Slice<EvidenceSlice> = (set, get) => ({
  evidence: [],
  revisionDetails: {},
  evidenceError: null,
  loadEvidence: async () => {
    try {
      const items: RevisionSummary[] = [];
      let after: string | undefined;
      // A case holds at most a few thousand revisions in the UI; page through them all.
      for (let i = 0; i < 50; i++) {
        const page = await call('evidence:list', { limit: PAGE, ...(after ? { after } : {}) });
        items.push(...page.items);
        if (!page.nextCursor) break;
        after = page.nextCursor;
      }
      // Cached details may be stale (state, history) or no longer visible (another actor's
      // clearance): refetch the ones still listed and drop the rest.
      const visible = new Set(items.map((r) => r.revisionId));
      const cached = Object.keys(get().revisionDetails).filter((id) => visible.has(id));
      const details = await Promise.all(cached.map((revisionId) => call('evidence:get', { revisionId })));
      set({ evidence: items, revisionDetails: Object.fromEntries(details.map((d) => [d.revisionId, d])), evidenceError: null });
    } catch (err) {
      set({ evidenceError: messageOf(err) });
    }
  },
  ensureRevisionDetails: async (revisionIds) => {
    const missing = [...new Set(revisionIds)].filter((id) => !get().revisionDetails[id] && !inFlight.has(id));
    if (missing.length === 0) return;
    missing.forEach((id) => inFlight.add(id));
    // One unreadable revision must not hide the others, so settle each call on its own.
    const settled = await Promise.allSettled(missing.map((revisionId) => call('evidence:get', { revisionId })));
    missing.forEach((id) => inFlight.delete(id));
    const details = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    set((s) => ({
      revisionDetails: { ...s.revisionDetails, ...Object.fromEntries(details.map((d) => [d.revisionId, d])) },
      ...(failure ? { evidenceError: messageOf(failure.reason) } : {}),
    }));
  },
  transitionRevision: async (request) => {
    try {
      await call('evidence:transition', request);
    } catch (err) {
      const refused = actionErrorOf(err);
      // The revision moved under us (another window, another reviewer): show where it is now.
      if (refused.code === 'CONFLICT' || refused.code === 'ILLEGAL_TRANSITION' || refused.code === 'NOT_FOUND') await get().refreshAll();
      return refused;
    }
    // A lifecycle move changes claim statuses, queues and the audit chain, not just this row.
    await get().refreshAll();
    return null;
  },
  confirmIndependent: async (request) => {
    try {
      await call('evidence:confirmIndependent', request);
    } catch (err) {
      return actionErrorOf(err);
    }
    // Independence changes claim counts and statuses, the audit chain and both revisions' details.
    await get().refreshAll();
    return null;
  },
  checkValidation: async (revisionId) => {
    try {
      return await call('evidence:validate', { revisionId });
    } catch (err) {
      return actionErrorOf(err);
    }
  },
});
