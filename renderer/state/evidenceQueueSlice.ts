import { z } from 'zod';
import { EvidenceKind, LifecycleState } from '../../shared/domain/enums';
import { EvidenceSort } from '../../shared/ipc/channels/evidence';
import type { RequestOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import { latestRead } from './latestRead';
import type { EvidenceFilter, EvidenceQueueSlice, Slice } from './types';

const PAGE = 100;
export const DEFAULT_EVIDENCE_FILTER: EvidenceFilter = { state: 'ALL', kind: 'ALL', text: '', sort: 'revision' };
const EMPTY_QUEUE = { items: [], nextCursor: null, counts: null, loading: false, error: null };

/** A remembered filter is read back through this: a stale or hand-edited one falls back field by field. */
const RememberedFilter = z.object({
  state: z.union([LifecycleState, z.literal('ALL')]).catch('ALL'),
  kind: z.union([EvidenceKind, z.literal('ALL')]).catch('ALL'),
  text: z.string().max(200).catch(''),
  sort: EvidenceSort.catch('revision'),
});

const requestOf = (f: EvidenceFilter): RequestOf<'evidence:list'> => ({
  ...(f.state !== 'ALL' ? { state: f.state } : {}),
  ...(f.kind !== 'ALL' ? { kind: f.kind } : {}),
  ...(f.text.trim() ? { text: f.text.trim() } : {}),
  sort: f.sort,
  limit: PAGE,
});

export const createEvidenceQueueSlice: Slice<EvidenceQueueSlice> = (set, get) => {
  // An answer to an older first-page read (the filter changed meanwhile) and its next pages are dropped.
  const queueReads = latestRead();
  return {
    evidenceFilter: DEFAULT_EVIDENCE_FILTER,
    evidenceFilterCase: null,
    evidenceQueue: EMPTY_QUEUE,
    setEvidenceFilter: async (patch) => {
      const evidenceFilter = { ...get().evidenceFilter, ...patch };
      // Chosen on this case: nothing remembered may replace it.
      set({ evidenceFilter, evidenceFilterCase: get().caseInfo?.caseId ?? null });
      const read = get().loadEvidenceQueue();
      try {
        await call('view:remember', { view: 'evidence', value: evidenceFilter });
      } catch {
        // Not remembering a filter loses a convenience, nothing of the case: the queue still reads.
      }
      await read;
    },
    loadEvidenceQueue: async () => {
      const current = queueReads.begin();
      const caseId = get().caseInfo?.caseId ?? null;
      if (caseId !== null && caseId !== get().evidenceFilterCase) {
        let recalled = DEFAULT_EVIDENCE_FILTER;
        try {
          const { value } = await call('view:recall', { view: 'evidence' });
          if (value !== null) recalled = RememberedFilter.parse(value);
        } catch {
          // Nothing remembered (or unreadable): the defaults.
        }
        if (!current()) return;
        set({ evidenceFilter: recalled, evidenceFilterCase: caseId });
      }
      set((s) => ({ evidenceQueue: { ...s.evidenceQueue, loading: true, error: null } }));
      try {
        const page = await call('evidence:list', { ...requestOf(get().evidenceFilter), counts: true });
        if (!current()) return;
        set({ evidenceQueue: { items: page.items, nextCursor: page.nextCursor, counts: page.counts ?? null, loading: false, error: null } });
      } catch (err) {
        if (!current()) return;
        set({ evidenceQueue: { ...EMPTY_QUEUE, error: messageOf(err) } });
      }
    },
    loadMoreEvidence: async () => {
      const { nextCursor, loading } = get().evidenceQueue;
      if (loading || nextCursor === null) return;
      const current = queueReads.follow();
      set((s) => ({ evidenceQueue: { ...s.evidenceQueue, loading: true, error: null } }));
      try {
        const page = await call('evidence:list', { ...requestOf(get().evidenceFilter), after: nextCursor });
        if (!current()) return;
        set((s) => ({ evidenceQueue: { ...s.evidenceQueue, items: [...s.evidenceQueue.items, ...page.items], nextCursor: page.nextCursor, loading: false } }));
      } catch (err) {
        if (!current()) return;
        set((s) => ({ evidenceQueue: { ...s.evidenceQueue, loading: false, error: messageOf(err) } }));
      }
    },
    validateEvidence: async (items, reason) => {
      try {
        const result = await call('evidence:validateMany', { items, reason });
        // Validation changes claim statuses, queues and the audit chain, not just these rows.
        await get().refreshAll();
        return result;
      } catch (err) {
        const refused = actionErrorOf(err);
        // A row moved under the selection: show where the queue is now.
        if (refused.code === 'CONFLICT' || refused.code === 'NOT_FOUND') await get().loadEvidenceQueue();
        return refused;
      }
    },
  };
};
