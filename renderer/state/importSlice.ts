import type { ImportProgress } from '../../shared/ipc/channels/importJobs';
import { call, importSourceOf } from '../bridge';
import { actionErrorOf } from './actionError';
import type { ImportSlice, Slice } from './types';

/** How often a running import's progress is asked for. */
const POLL_MS = 250;
const running = (p: ImportProgress | null) => p !== null && (p.phase === 'reading' || p.phase === 'applying');

/**
 * The one import this window runs (drop, File > Import…, the Cases view): starts the job, follows
 * it until it ends, and refreshes the views once it committed. While it applies, the case
 * answers BUSY, so the views wait for it instead of reading.
 */
export const createImportSlice: Slice<ImportSlice> = (set, get) => ({
  importJob: null,
  importError: null,
  startImport: async (source) => {
    if (running(get().importJob)) return;
    set({ importJob: null, importError: null });
    try {
      const from = source instanceof File ? await importSourceOf(source) : { path: source };
      let progress = await call('import:start', { source: from });
      set({ importJob: progress });
      while (running(progress)) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        progress = await call('import:progress', { jobId: progress.jobId });
        // A cancel may have answered meanwhile with the final state; never step back to "running".
        if (!running(get().importJob) && get().importJob?.jobId === progress.jobId) return;
        set({ importJob: progress });
      }
      if (progress.phase === 'done') await get().refreshAll();
    } catch (err) {
      set({ importError: actionErrorOf(err) });
    }
  },
  cancelImport: async () => {
    const job = get().importJob;
    if (!running(job)) return;
    try {
      set({ importJob: await call('import:cancel', { jobId: job!.jobId }) });
    } catch (err) {
      set({ importError: actionErrorOf(err) });
    }
  },
  dismissImport: () => set({ importJob: null, importError: null }),
});
