import { call } from '../bridge';
import { messageOf } from './actionError';
import { latestRead } from './latestRead';
import type { GraphFocus, GraphLimit, GraphSlice, Slice } from './types';

/**
 * Nodes a neighbourhood may hold: by default enough to read and few enough to lay out at once; the
 * larger budget draws an overview of a big case (past LARGE_GRAPH_NODES the view draws its
 * bindings, and its nodes when zoomed out, on one canvas).
 */
export const GRAPH_LIMITS: readonly GraphLimit[] = [250, 1000];

const idOf = (f: GraphFocus): string | null => ('id' in f ? f.id : null);
/** Whether two foci name the same place of the graph. */
export const sameFocus = (a: GraphFocus, b: GraphFocus) => a.kind === b.kind && idOf(a) === idOf(b);

/** The graph of a case just opened, or of a reviewer just unlocked: the whole case, nothing from before. */
export const GRAPH_START = { graphTrail: [{ kind: 'case' }] as GraphFocus[], graphExpanded: [] as string[], graph: null, graphError: null, graphSelection: null };

export const createGraphSlice: Slice<GraphSlice> = (set, get) => {
  // Answers to reads that a later read has overtaken are dropped: the graph shows the last one asked.
  const graphReads = latestRead();
  return {
    ...GRAPH_START,
    showUnboundEvidence: false,
    graphLimit: GRAPH_LIMITS[0]!,
    graphLoading: false,
    selectGraphNode: (graphSelection) =>
      // A selected revision is the same revision in every view, so the Evidence view opens on it too.
      set(graphSelection?.kind === 'revision' ? { graphSelection, selectedRevisionId: graphSelection.id } : { graphSelection }),
    setShowUnboundEvidence: async (showUnboundEvidence) => {
      set({ showUnboundEvidence });
      await get().loadGraph();
    },
    setGraphLimit: async (graphLimit) => {
      set({ graphLimit });
      await get().loadGraph();
    },
    loadGraph: async () => {
      const { graphTrail, graphExpanded, showUnboundEvidence, graphLimit } = get();
      const current = graphReads.begin();
      set({ graphLoading: true });
      try {
        const graph = await call('graph:neighbourhood', { focus: graphTrail[graphTrail.length - 1]!, hops: 1, expand: graphExpanded, limit: graphLimit, unbound: showUnboundEvidence });
        if (current()) set({ graph, graphError: null, graphLoading: false });
      } catch (err) {
        // The focus may be gone (another reviewer's clearance, a reopened case): the error says so,
        // and what was drawn stays, marked as failed, until a retry or another focus succeeds.
        if (current()) set({ graphError: messageOf(err), graphLoading: false });
      }
    },
    focusGraph: async (focus) => {
      const trail = get().graphTrail;
      if (sameFocus(trail[trail.length - 1]!, focus)) return;
      set({ graphTrail: [...trail, focus], graphExpanded: [] });
      await get().loadGraph();
    },
    graphBack: async (index) => {
      const trail = get().graphTrail;
      const to = index ?? trail.length - 2;
      if (to < 0 || to >= trail.length - 1) return;
      set({ graphTrail: trail.slice(0, to + 1), graphExpanded: [] });
      await get().loadGraph();
    },
    expandGraphNode: async (node) => {
      if (get().graphExpanded.includes(node)) return;
      set((s) => ({ graphExpanded: [...s.graphExpanded, node] }));
      await get().loadGraph();
    },
    collapseGraphNode: async (node) => {
      set((s) => ({ graphExpanded: s.graphExpanded.filter((n) => n !== node) }));
      await get().loadGraph();
    },
  };
};
