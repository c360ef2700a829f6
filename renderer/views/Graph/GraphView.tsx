import '@xyflow/react/dist/style.css';
import { Background, getNodesBounds, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, type Connection, type Edge, type NodeMouseHandler } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BindDialog } from '../../components/BindingActions';
import { useShallow } from 'zustand/react/shallow';
import { selectActions, selectGraphActions, selectGraphView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { GraphSidePanel } from './GraphSidePanel';
import { GraphLegend, GraphToolbar, GraphTrail } from './GraphToolbar';
import { ARROWS, nextNode } from './keyboard';
import { edgeTypes, nodeTypes, RelationMarkers } from './nodes';
import { LARGE_GRAPH_NODES } from './layout';
import { useCompact } from './nodes/zoomLevel';
import { nodeAt, OverviewCanvas } from './OverviewCanvas';
import { OverviewMiniMap } from './OverviewMiniMap';
import { claimNodeId, LAYOUT, revisionNodeId, toFlow, type WorkbenchFlowNode } from './toFlow';

const MARGIN = 24;
/** What React Flow is given of a large graph's part the overview canvas draws instead. */
const NONE: never[] = [];

export function GraphView() {
  return (
    <ReactFlowProvider>
      <GraphCanvas />
    </ReactFlowProvider>
  );
}

function GraphCanvas() {
  const { graph, graphError, graphLoading, trail, showUnbound, limit, selection } = useWorkbench(useShallow(selectGraphView));
  const { selectGraphNode, setShowUnboundEvidence } = useWorkbench(useShallow(selectActions));
  const { loadGraph, focusGraph, graphBack, setGraphLimit } = useWorkbench(useShallow(selectGraphActions));
  const flow = useReactFlow();
  const canvas = useRef<HTMLDivElement>(null);
  // The overview map sits over the canvas and may hide nodes under it: the analyst opens it.
  const [showMap, setShowMap] = useState(false);

  // The graph reads a neighbourhood (graph:neighbourhood), never the whole case; the first time
  // the view opens on a case, it reads the case's own.
  useEffect(() => {
    if (graph === null && !graphLoading && graphError === null) void loadGraph();
  }, [graph, graphLoading, graphError, loadGraph]);

  const { nodes, edges, undrawnBindings } = useMemo(
    () =>
      toFlow({
        claims: graph?.claims ?? [],
        evidence: graph?.revisions ?? [],
        selection,
        reviews: graph?.reviews ?? [],
        hidden: graph?.hidden ?? {},
        unboundNotShown: graph?.unboundNotShown ?? 0,
      }),
    [graph, selection],
  );
  const hasLane = nodes.some((n) => n.type === 'lane');
  // A large graph's bindings are drawn on the overview canvas, and its nodes too once zoomed out
  // to badges (OverviewCanvas.tsx); React Flow keeps the viewport and draws the rest.
  const large = nodes.length > LARGE_GRAPH_NODES;
  const compact = useCompact();
  const nodesOnCanvas = large && compact;

  // Fit the layout's width and start at the top: fitting everything at once would shrink the text
  // of a real case below reading size, while claims stacked downwards pan naturally.
  const fitWidth = useCallback(() => {
    const width = canvas.current?.clientWidth ?? 800;
    const contentWidth = (hasLane ? LAYOUT.unboundX : LAYOUT.evidenceX) + LAYOUT.evidenceWidth + 2 * MARGIN;
    const zoom = Math.min(1, Math.max(0.3, width / contentWidth));
    void flow.setViewport({ x: MARGIN * zoom, y: MARGIN, zoom });
  }, [flow, hasLane]);

  const nodesRef = useRef(nodes);
  useEffect(() => {
    nodesRef.current = nodes;
  }, [nodes]);

  // A new focus starts at the top; expanding a node or a refresh leaves the view where it is.
  const focusNow = trail[trail.length - 1];
  const drawnAny = nodes.length > 0;
  useEffect(() => {
    if (drawnAny) fitWidth();
  }, [focusNow, drawnAny, fitWidth]);

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

  const select = useCallback(
    (node: WorkbenchFlowNode | null) => {
      if (node?.type === 'claim') selectGraphNode({ kind: 'claim', id: node.data.claimId });
      else if (node?.type === 'evidence') selectGraphNode({ kind: 'revision', id: node.data.revisionId });
      else selectGraphNode(null);
    },
    [selectGraphNode],
  );
  const onNodeClick: NodeMouseHandler<WorkbenchFlowNode> = useCallback((_event, node) => select(node), [select]);
  // Double-click moves the focus: the graph opens on that node's own neighbourhood.
  const focusOn = useCallback(
    (node: WorkbenchFlowNode) => {
      if (node.type === 'claim') void focusGraph({ kind: 'claim', id: node.data.claimId });
      else if (node.type === 'evidence') void focusGraph({ kind: 'revision', id: node.data.revisionId });
    },
    [focusGraph],
  );
  const onNodeDoubleClick: NodeMouseHandler<WorkbenchFlowNode> = useCallback((_event, node) => focusOn(node), [focusOn]);
  // Nodes drawn on the overview canvas are picked where the pointer is.
  const canvasNodeAt = (e: React.MouseEvent) => (nodesOnCanvas ? nodeAt(nodes, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY })) : null);

  // Keyboard: arrows move the selection between nodes, Enter opens its detail beside the graph,
  // Escape steps back along the trail (or clears the selection at its start).
  const selectedNodeId = selection ? (selection.kind === 'claim' ? claimNodeId(selection.id) : revisionNodeId(selection.id)) : null;
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.target !== e.currentTarget && !(e.target instanceof HTMLElement && e.target.closest('.react-flow__node'))) return;
    const dir = ARROWS[e.key];
    if (dir) {
      const placed = nodes.filter((n) => n.type !== 'lane');
      const to = nextNode(placed, selectedNodeId, dir);
      const node = placed.find((n) => n.id === to);
      if (node?.type === 'claim') selectGraphNode({ kind: 'claim', id: node.data.claimId });
      if (node?.type === 'evidence') selectGraphNode({ kind: 'revision', id: node.data.revisionId });
      e.preventDefault();
    } else if (e.key === 'Enter' && selection) {
      document.querySelector<HTMLElement>('[data-testid="graph-side"]')?.focus();
      e.preventDefault();
    } else if (e.key === 'Escape') {
      if (trail.length > 1) void graphBack();
      else selectGraphNode(null);
      e.preventDefault();
    }
  };

  return (
    <div className="graph-layout fill">
      <div className="panel graph-panel">
        <GraphToolbar
          showUnbound={showUnbound}
          onShowUnbound={(show) => void setShowUnboundEvidence(show)}
          showMap={showMap}
          onShowMap={setShowMap}
          onFitWidth={fitWidth}
          // Fits what toFlow placed, not what React Flow holds: zoomed out, a large graph's nodes are on the overview canvas.
          onFitAll={() => void flow.fitBounds(getNodesBounds(nodes), { padding: 0.05 })}
          limit={limit}
          onLimit={(n) => void setGraphLimit(n)}
          undrawnBindings={undrawnBindings}
        />
        <GraphTrail
          trail={trail}
          graph={graph}
          error={graphError}
          loading={graphLoading}
          onBack={(i) => void graphBack(i)}
          onRetry={() => void loadGraph()}
          onDisputes={() => void focusGraph({ kind: 'disputes' })}
          onOpen={(hit) => {
            const focus = hit.kind === 'claim' ? ({ kind: 'claim', id: hit.id } as const) : ({ kind: 'revision', id: hit.id } as const);
            void focusGraph(focus);
            selectGraphNode(focus.kind === 'claim' ? { kind: 'claim', id: hit.id } : { kind: 'revision', id: hit.id });
          }}
        />
        <div
          className="graph-canvas"
          ref={canvas}
          data-testid="graph-canvas"
          tabIndex={0}
          aria-label="Evidence graph: arrow keys move between nodes, Enter opens the detail, Escape goes back"
          onKeyDown={onKeyDown}
          onDoubleClick={(e) => {
            const node = canvasNodeAt(e);
            if (node) focusOn(node);
          }}
        >
          <RelationMarkers />
          <ReactFlow<WorkbenchFlowNode>
            nodes={nodesOnCanvas ? NONE : nodes}
            edges={large ? NONE : edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodeClick={onNodeClick}
            onNodeDoubleClick={onNodeDoubleClick}
            onPaneClick={(e) => select(canvasNodeAt(e))}
            zoomOnDoubleClick={false}
            nodesDraggable={false}
            nodesConnectable
            onConnect={onConnect}
            isValidConnection={(c) => ends(c) !== null}
            edgesFocusable={false}
            // A large graph is drawn for overview: only what is in view is mounted (layout.ts).
            onlyRenderVisibleElements={large}
            minZoom={0.1}
            maxZoom={1.75}
            // Offline tool: the attribution is a link to the internet the window cannot open anyway.
            proOptions={{ hideAttribution: true }}
          >
            <Background gap={24} size={1} color="var(--graph-grid)" />
            {large && <OverviewCanvas nodes={nodes} edges={edges} drawNodes={nodesOnCanvas} selectedNodeId={selectedNodeId} />}
            {/* Zoomed out, React Flow holds none of a large graph's nodes, and its MiniMap would be empty. */}
            {showMap && (nodesOnCanvas ? <OverviewMiniMap nodes={nodes} /> : <MiniMap pannable zoomable ariaLabel="Overview of the graph" nodeColor={miniMapColour} data-testid="graph-minimap" />)}
          </ReactFlow>
        </div>
        <GraphLegend />
      </div>
      <GraphSidePanel />
      {binding && <BindDialog claimId={binding.claimId} revisionId={binding.revisionId} onClose={() => setBinding(null)} />}
    </div>
  );
}

const miniMapColour = (n: WorkbenchFlowNode): string => (n.type === 'claim' ? 'var(--minimap-claim)' : n.type === 'evidence' ? 'var(--minimap-evidence)' : 'transparent');
