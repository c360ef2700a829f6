import type { EvidenceDetail } from '../../shared/ipc/channels/evidence';
import { call } from '../bridge';
import { actionErrorOf, isGone, messageOf } from './actionError';
import type { EvidenceSlice, Slice } from './types';

/**
 * Details kept (and read again after each change): the revisions asked for most recently, and
 * always the whole of the last batch asked for (a view that shows them all at once must find them).
 */
const KEPT_DETAILS = 400;

function keepNewest(kept: Record<string, EvidenceDetail>, added: readonly EvidenceDetail[], asked: readonly string[]): Record<string, EvidenceDetail> {
  const out = { ...kept };
  for (const d of added) out[d.revisionId] = d;
  // The ones asked for move to the newest end, whether read now or kept from before.
  let newest = 0;
  for (const id of asked) {
    const d = out[id];
    if (!d) continue;
    delete out[id];
    out[id] = d;
    newest += 1;
  }
  return Object.fromEntries(Object.entries(out).slice(-Math.max(KEPT_DETAILS, newest)));
}

// Requests in flight, so several views asking for the same revision at once cost one call.
const inFlight = new Set<string>();

export const createEvidenceSlice: Slice<EvidenceSlice> = (set, get) => ({
  revisionDetails: {},
  evidenceError: null,
  goneRevisions: new Set(),
  refreshRevisionDetails: async () => {
    const kept = Object.keys(get().revisionDetails);
    const settled = await Promise.allSettled(kept.map((revisionId) => call('evidence:get', { revisionId })));
    const details = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // A revision gone from view (another reviewer's clearance) is dropped, not reported.
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !isGone(r.reason));
    set({ revisionDetails: Object.fromEntries(details.map((d) => [d.revisionId, d])), evidenceError: failure ? messageOf(failure.reason) : null, goneRevisions: new Set() });
  },
  ensureRevisionDetails: async (revisionIds) => {
    const asked = [...new Set(revisionIds)];
    const missing = asked.filter((id) => !get().revisionDetails[id] && !inFlight.has(id));
    if (missing.length === 0) return;
    missing.forEach((id) => inFlight.add(id));
    // One unreadable revision must not hide the others, so settle each call on its own.
    const settled = await Promise.allSettled(missing.map((revisionId) => call('evidence:get', { revisionId })));
    missing.forEach((id) => inFlight.delete(id));
    const details = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // A revision gone from view (a selection that outlived the reviewer's clearance) just has no detail.
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !isGone(r.reason));
    const gone = missing.filter((_, i) => settled[i]!.status === 'rejected' && isGone((settled[i] as PromiseRejectedResult).reason));
    set((s) => ({
      revisionDetails: keepNewest(s.revisionDetails, details, asked),
      goneRevisions: new Set([...[...s.goneRevisions].filter((id) => !details.some((d) => d.revisionId === id)), ...gone].slice(-100)),
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
