import '@xyflow/react/dist/style.css';
import { ReactFlow, type Edge, type Node } from '@xyflow/react';
import { createRoot } from 'react-dom/client';
import { toFlow } from '../../../renderer/views/Graph/toFlow';
import type { GraphNeighbourhood } from '../seedGraph';
import type { GraphBenchProbe } from './probe';

/** The baseline: React Flow with its default nodes and edges and no optimisation. */
export function mountPlain(root: HTMLElement, graph: GraphNeighbourhood, probe: GraphBenchProbe): void {
  // The same nodes and edges at the same positions as #ours-render: toFlow, with the two-column
  // layout standing in for dagre in this page (dagreSwitch.ts).
  const start = performance.now();
  const flow = toFlow({ claims: graph.claims, evidence: graph.revisions, selection: null, hidden: graph.hidden, unboundNotShown: graph.unboundNotShown });
  probe.toFlowMs = performance.now() - start;
  const nodes: Node[] = flow.nodes.map((n) => ({ id: n.id, position: n.position, data: { label: n.id } }));
  const edges: Edge[] = flow.edges.map((e) => ({ id: e.id, source: e.source, target: e.target }));
  createRoot(root).render(
    <div style={{ position: 'fixed', inset: 0 }}>
      <ReactFlow nodes={nodes} edges={edges} fitView />
    </div>,
  );
}
