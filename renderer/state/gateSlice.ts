import type { ResponseOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { actionErrorOf, messageOf, type ActionError, type Slice } from './slice';

export type GateStatus = ResponseOf<'case:gate'>;
export type FinalizeResult = ResponseOf<'case:finalize'>;

/** The completion gate (DESIGN §3.4): what keeps the case from FINAL, and finalizing it. */
export interface GateSlice {
  gate: GateStatus | null;
  gateError: string | null;
  /** The answer of the last finalize attempt in this session: FINAL with its head, DRAFT with blockers, or a refusal. */
  finalizeOutcome: { result: FinalizeResult } | { error: ActionError } | null;
  loadGate: () => Promise<void>;
  finalizeCase: () => Promise<void>;
}

export const createGateSlice: Slice<GateSlice> = (set, get) => ({
  gate: null,
  gateError: null,
  finalizeOutcome: null,
  loadGate: async () => {
    try {
      set({ gate: await call('case:gate', {}), gateError: null });
    } catch (err) {
      set({ gate: null, gateError: messageOf(err) });
    }
  },
  finalizeCase: async () => {
    let outcome: GateSlice['finalizeOutcome'];
    try {
      outcome = { result: await call('case:finalize', {}) };
    } catch (err) {
      outcome = { error: actionErrorOf(err) };
    }
    // A FINAL appends the finalize receipt: the chain head, the audit list and the gate all move.
    await get().refreshAll();
    set({ finalizeOutcome: outcome });
  },
});
