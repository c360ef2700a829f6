import type { QueueSlice, Slice } from './types';

export const createQueueSlice: Slice<QueueSlice> = (set) => ({
  selectedDispute: null,
  selectedQuarantined: null,
  selectDispute: (selectedDispute) => set({ selectedDispute }),
  selectQuarantined: (selectedQuarantined) => set({ selectedQuarantined }),
});
