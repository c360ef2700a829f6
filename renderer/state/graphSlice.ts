import type { Slice } from './slice';

export type GraphSelection = { kind: 'claim'; id: string } | { kind: 'revision'; id: string };

export interface GraphSlice {
  graphSelection: GraphSelection | null;
  /** Evidence no claim is bound to is noise in most reviews; the analyst opts in. */
  showUnboundEvidence: boolean;
  selectGraphNode: (selection: GraphSelection | null) => void;
  setShowUnboundEvidence: (show: boolean) => void;
}

export const createGraphSlice: Slice<GraphSlice> = (set) => ({
  graphSelection: null,
  showUnboundEvidence: false,
  selectGraphNode: (graphSelection) =>
    // A selected revision is the same revision in every view, so the Evidence view opens on it too.
    set(graphSelection?.kind === 'revision' ? { graphSelection, selectedRevisionId: graphSelection.id } : { graphSelection }),
  setShowUnboundEvidence: (showUnboundEvidence) => set({ showUnboundEvidence }),
});
