import '@xyflow/react/dist/style.css';
import { Background, ReactFlow, ReactFlowProvider, useReactFlow, type Connection, type Edge, type NodeMouseHandler } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BindDialog } from '../../components/BindingActions';
import { useShallow } from 'zustand/react/shallow';
import { selectActions, selectGraphView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { GraphSidePanel } from './GraphSidePanel';
import { GraphLegend, GraphToolbar } from './GraphToolbar';
import { edgeTypes, nodeTypes, RelationMarkers } from './nodes';
import { claimNodeId, LAYOUT, revisionNodeId, toFlow, type WorkbenchFlowNode } from './toFlow';

const MARGIN = 24;

export function GraphView() {
  return (
    <ReactFlowProvider>
      <GraphCanvas />
    </ReactFlowProvider>
  );
}

function GraphCanvas() {
  const { claims, evidence, showUnbound, selection, reviews } = useWorkbench(useShallow(selectGraphView));
  const { selectGraphNode, setShowUnboundEvidence } = useWorkbench(useShallow(selectActions));
  const flow = useReactFlow();
  const canvas = useRef<HTMLDivElement>(null);

  // claim:list gives the order and each claim's bindings: one request, never one per claim.
  const { nodes, edges, undrawnBindings } = useMemo(
    () => toFlow({ claims, evidence, showUnbound, selection, reviews }),
    [claims, evidence, showUnbound, selection, reviews],
  );

  // Fit the layout's width and start at the top: fitting everything at once would shrink the text
  // of a real case below reading size, while claims stacked downwards pan naturally.
  const fitWidth = useCallback(() => {
    const width = canvas.current?.clientWidth ?? 800;
    const contentWidth = (showUnbound ? LAYOUT.unboundX : LAYOUT.evidenceX) + LAYOUT.evidenceWidth + 2 * MARGIN;
    const zoom = Math.min(1, Math.max(0.3, width / contentWidth));
    void flow.setViewport({ x: MARGIN * zoom, y: MARGIN, zoom });
  }, [flow, showUnbound]);

  const nodesRef = useRef(nodes);
  useEffect(() => {
    nodesRef.current = nodes;
  }, [nodes]);

  const nodeCount = nodes.length;
  useEffect(() => {
    if (nodeCount > 0) fitWidth();
  }, [nodeCount, fitWidth]);

  // A selection made outside the canvas (claim list, binding links) may sit off-screen: bring it in,
  // but leave the viewport alone when the node is already visible, so clicks never make it jump.
  useEffect(() => {
    if (!selection) return;
    const id = selection.kind === 'claim' ? claimNodeId(selection.id) : revisionNodeId(selection.id);
    const node = nodesRef.current.find((n) => n.id === id);
    const el = canvas.current;
    if (!node || !el) return;
    const { x, y, zoom } = flow.getViewport();
    const left = node.position.x * zoom + x;
    const top = node.position.y * zoom + y;
    const w = (node.width ?? 0) * zoom;
    const h = (node.height ?? 0) * zoom;
    const fitsX = left >= 0 && left + w <= el.clientWidth;
    const fitsY = top >= 0 && top + h <= el.clientHeight;
    if (fitsX && fitsY) return;
    // Move only along the axis that hides it: a claim scrolled into view keeps its evidence beside it.
    void flow.setViewport(
      {
        x: fitsX ? x : el.clientWidth / 2 - (node.position.x + (node.width ?? 0) / 2) * zoom,
        y: fitsY ? y : el.clientHeight / 2 - (node.position.y + (node.height ?? 0) / 2) * zoom,
        zoom,
      },
      { duration: 250 },
    );
    // Only a new selection should move the view, not a data refresh that rebuilds the nodes:
    // `nodes` is read through a ref for that reason.
  }, [selection, flow]);

  // Drag from an evidence revision's handle onto a claim to bind it (the dialog asks how).
  const [binding, setBinding] = useState<{ claimId: string; revisionId: string } | null>(null);
  const ends = (c: Connection | Edge) => {
    const [from, to] = [c.source, c.target];
    const rev = [from, to].find((id) => id.startsWith(revisionNodeId('')));
    const claim = [from, to].find((id) => id.startsWith(claimNodeId('')));
    return rev && claim ? { revisionId: rev.slice(revisionNodeId('').length), claimId: claim.slice(claimNodeId('').length) } : null;
  };
  const onConnect = useCallback((c: Connection) => setBinding(ends(c)), []);

  const onNodeClick: NodeMouseHandler<WorkbenchFlowNode> = useCallback(
    (_event, node) => {
      if (node.type === 'claim') selectGraphNode({ kind: 'claim', id: node.data.claimId });
      else if (node.type === 'evidence') selectGraphNode({ kind: 'revision', id: node.data.revisionId });
    },
    [selectGraphNode],
  );

  return (
    <div className="graph-layout fill">
      <div className="panel graph-panel">
        <GraphToolbar showUnbound={showUnbound} onShowUnbound={setShowUnboundEvidence} onFitWidth={fitWidth} undrawnBindings={undrawnBindings} />
        <div className="graph-canvas" ref={canvas} data-testid="graph-canvas">
          <RelationMarkers />
          <ReactFlow<WorkbenchFlowNode>
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodeClick={onNodeClick}
            onPaneClick={() => selectGraphNode(null)}
            nodesDraggable={false}
            nodesConnectable
            onConnect={onConnect}
            isValidConnection={(c) => ends(c) !== null}
            edgesFocusable={false}
            minZoom={0.2}
            maxZoom={1.75}
            // Offline tool: the attribution is a link to the internet the window cannot open anyway.
            proOptions={{ hideAttribution: true }}
          >
            <Background gap={24} size={1} color="#d9dde3" />
          </ReactFlow>
        </div>
        <GraphLegend />
      </div>
      <GraphSidePanel />
      {binding && <BindDialog claimId={binding.claimId} revisionId={binding.revisionId} onClose={() => setBinding(null)} />}
    </div>
  );
}
