import type { RemediationView } from '../../shared/ipc/channels/remediation';
import type { RevocationStatus } from '../../shared/ipc/channels/revocation';
import type { RequestOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { actionErrorOf, messageOf, type ActionError, type Slice } from './slice';
import type { WorkbenchState } from './store';

/** The remediation queue and revocation convergence (DESIGN §3.5–3.6). */
export interface RemediationSlice {
  remediations: RemediationView[];
  revocationStatus: RevocationStatus | null;
  remediationError: string | null;
  selectedRemediation: number | null;
  loadRemediations: () => Promise<void>;
  /** Convergence progress only: cheap enough to poll while the view is open. */
  loadRevocationStatus: () => Promise<void>;
  selectRemediation: (remediationId: number | null) => void;
  /** Processes outbox jobs now instead of waiting for the background worker. */
  runRevocationWorker: () => Promise<ActionError | null>;
  retainCurrentRevision: (request: RequestOf<'remediation:retainCurrentRevision'>) => Promise<ActionError | null>;
  requestRereview: (request: RequestOf<'remediation:requestRereview'>) => Promise<ActionError | null>;
  withdrawRemediated: (request: RequestOf<'remediation:withdraw'>) => Promise<ActionError | null>;
}

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
        // Claims carry their projection: reload them too, so the queue and the claims agree.
        const [list, status] = await Promise.all([call('remediation:list', {}), call('revocation:status', {}), get().loadClaims()]);
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

export const selectRemediations = (s: WorkbenchState) => s.remediations;
export const selectRevocationStatus = (s: WorkbenchState) => s.revocationStatus;
export const selectRemediationError = (s: WorkbenchState) => s.remediationError;
export const selectSelectedRemediation = (s: WorkbenchState) => s.selectedRemediation;
export const selectRemediationActions = (s: WorkbenchState) => ({
  loadRemediations: s.loadRemediations,
  loadRevocationStatus: s.loadRevocationStatus,
  selectRemediation: s.selectRemediation,
  runRevocationWorker: s.runRevocationWorker,
  retainCurrentRevision: s.retainCurrentRevision,
  requestRereview: s.requestRereview,
  withdrawRemediated: s.withdrawRemediated,
});
