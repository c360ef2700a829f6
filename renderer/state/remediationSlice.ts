import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import type { ActionError, RemediationSlice, Slice } from './types';

export const createRemediationSlice: Slice<RemediationSlice> = (set, get) => {
  /** Runs an action; on success, or on a refusal that means the data moved, everything affected reloads. */
  const act = async (run: () => Promise<unknown>): Promise<ActionError | null> => {
    try {
      await run();
    } catch (err) {
      const refused = actionErrorOf(err);
      if (refused.code === 'CONFLICT' || refused.code === 'NOT_FOUND') await get().loadRemediations();
      return refused;
    }
    // A resolution moves a claim to a new generation and appends a receipt: claims, graph and audit change too.
    await Promise.all([get().loadRemediations(), get().refreshAll()]);
    return null;
  };
  return {
    remediations: [],
    revocationStatus: null,
    remediationError: null,
    selectedRemediation: null,
    loadRemediations: async () => {
      try {
        // Open claims carry their projection: read them again too, so the queue and the claims agree.
        const [list, status] = await Promise.all([call('remediation:list', {}), call('revocation:status', {}), get().refreshClaimDetails()]);
        set({ remediations: list.items, revocationStatus: status, remediationError: null });
      } catch (err) {
        set({ remediationError: messageOf(err) });
      }
    },
    loadRevocationStatus: async () => {
      try {
        const status = await call('revocation:status', {});
        const before = get().revocationStatus;
        set({ revocationStatus: status });
        // New remediations or finished jobs since the last poll: the queue itself changed.
        if (before && (before.openRemediations !== status.openRemediations || before.openJobs !== status.openJobs)) await get().loadRemediations();
      } catch (err) {
        set({ remediationError: messageOf(err) });
      }
    },
    selectRemediation: (selectedRemediation) => set({ selectedRemediation }),
    runRevocationWorker: () => act(() => call('revocation:runWorker', {})),
    retainCurrentRevision: (request) => act(() => call('remediation:retainCurrentRevision', request)),
    requestRereview: (request) => act(() => call('remediation:requestRereview', request)),
    withdrawRemediated: (request) => act(() => call('remediation:withdraw', request)),
  };
};
