import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import { latestRead } from './latestRead';
import type { GateSlice, Slice } from './types';

export const createGateSlice: Slice<GateSlice> = (set, get) => {
  const gateReads = latestRead();
  return {
    gate: null,
    gateError: null,
    finalizeOutcome: null,
    loadGate: async () => {
      const current = gateReads.begin();
      try {
        const gate = await call('case:gate', {});
        if (current()) set({ gate, gateError: null });
      } catch (err) {
        if (current()) set({ gate: null, gateError: messageOf(err) });
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
    reopenCase: async (reason) => {
      try {
        await call('case:reopen', { reason });
      } catch (err) {
        return actionErrorOf(err);
      }
      await get().refreshAll();
      set({ finalizeOutcome: null });
      return null;
    },
  };
};
