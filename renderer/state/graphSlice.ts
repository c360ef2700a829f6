import type { GraphSlice, Slice } from './types';

export const createGraphSlice: Slice<GraphSlice> = (set) => ({
  graphSelection: null,
  showUnboundEvidence: false,
  selectGraphNode: (graphSelection) =>
    // A selected revision is the same revision in every view, so the Evidence view opens on it too.
    set(graphSelection?.kind === 'revision' ? { graphSelection, selectedRevisionId: graphSelection.id } : { graphSelection }),
  setShowUnboundEvidence: (showUnboundEvidence) => set({ showUnboundEvidence }),
});
