import type { Slice } from './slice';

/** A dispute queue entry: a MIXED claim or a DISPUTED revision. */
export type DisputeKey = `claim:${string}` | `revision:${string}`;

export interface QueueSlice {
  selectedDispute: DisputeKey | null;
  selectedQuarantined: string | null;
  selectDispute: (key: DisputeKey | null) => void;
  selectQuarantined: (revisionId: string | null) => void;
}

export const createQueueSlice: Slice<QueueSlice> = (set) => ({
  selectedDispute: null,
  selectedQuarantined: null,
  selectDispute: (selectedDispute) => set({ selectedDispute }),
  selectQuarantined: (selectedQuarantined) => set({ selectedQuarantined }),
});
