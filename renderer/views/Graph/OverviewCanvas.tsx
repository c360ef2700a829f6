import { useStoreApi } from '@xyflow/react';
import { useEffect, useMemo, useRef } from 'react';
import type { ClaimStatus, LifecycleState } from '../../../shared/domain/enums';
import { RELATION_STYLE } from './relationStyle';
import { COMPACT_BELOW } from './nodes/zoomLevel';
import { LAYOUT, type BindingFlowEdge, type WorkbenchFlowNode } from './toFlow';

/**
 * A large graph (past LARGE_GRAPH_NODES) drawn on one canvas under React Flow's nodes: its
 * bindings always, and its nodes too once zoomed out to badges. As SVG and DOM, thousands of
 * edges reaching across the case stayed mounted while in view, and every zoom step re-rasterised
 * them all (p95 frame 0.6-1.2 s at 5,000 nodes); here a frame strokes one path per relation, only
 * what is in view. The picture is the one React Flow would draw: the same positions, handle points
 * (toFlow's fixed sizes), relation colours and dashes (relationStyle.ts), dimming and selection.
 */
export interface OverviewProps {
  nodes: readonly WorkbenchFlowNode[];
  edges: readonly BindingFlowEdge[];
  /** Zoomed out to badges: the nodes are drawn here, React Flow draws none. */
  drawNodes: boolean;
  selectedNodeId: string | null;
}

/** The stylesheet's colour for a claim status and a lifecycle state (styles.css: status-border-*, node-state-*). */
const STATUS_MARK: Record<ClaimStatus, string> = { SUPPORTED: '--ok', REFUTED: '--bad', MIXED: '--warn', INSUFFICIENT: '--neutral-mark', UNRESOLVED: '--violet' };
const STATE_MARK: Record<LifecycleState, string> = {
  VALIDATED: '--ok',
  CANDIDATE: '--neutral-mark',
  DISPUTED: '--warn',
  SUPERSEDED: '--violet',
  QUARANTINED: '--quarantine-mark',
  REVOKED: '--bad',
};

/** Past this many edges in view, relations are told by colour alone (the legend's swatches), not dashes. */
export const DASHED_EDGES_MAX = 400;

export interface Segment {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  kind: 'claim' | 'evidence' | 'lane';
  mark: string;
  word: string;
  label: string;
  dimmed: boolean;
}

/** Edges grouped by how they are stroked (relation, dimmed), with their end points in flow coordinates. */
function geometry(nodes: readonly WorkbenchFlowNode[], edges: readonly BindingFlowEdge[]) {
  const at = new Map(nodes.map((n) => [n.id, n.position]));
  const groups = new Map<string, { relation: keyof typeof RELATION_STYLE; dimmed: boolean; segments: Segment[] }>();
  for (const e of edges) {
    const from = at.get(e.source);
    const to = at.get(e.target);
    if (!from || !to || !e.data) continue;
    const key = `${e.data.relation}:${e.data.dimmed}`;
    if (!groups.has(key)) groups.set(key, { relation: e.data.relation, dimmed: e.data.dimmed, segments: [] });
    // Evidence (the source) binds from its left edge to the claim's right edge, as toFlow's handles do.
    groups.get(key)!.segments.push({ sx: from.x, sy: from.y + LAYOUT.evidenceHeight / 2, tx: to.x + LAYOUT.claimWidth, ty: to.y + LAYOUT.claimHeight / 2 });
  }
  const boxes: Box[] = nodes.map((n) => {
    const base = { id: n.id, x: n.position.x, y: n.position.y, w: n.width ?? LAYOUT.evidenceWidth, h: n.height ?? LAYOUT.evidenceHeight };
    if (n.type === 'claim') return { ...base, kind: 'claim', mark: STATUS_MARK[n.data.status], word: n.data.status, label: n.data.claimId, dimmed: n.data.dimmed };
    if (n.type === 'evidence') return { ...base, kind: 'evidence', mark: STATE_MARK[n.data.state], word: n.data.state, label: n.data.revisionId, dimmed: n.data.dimmed };
    return { ...base, kind: 'lane', mark: '--line', word: '', label: n.data.label, dimmed: false };
  });
  return { groups: [...groups.values()], boxes };
}

/** The node under a point of the flow, if any (lanes are not nodes one can pick). */
export function nodeAt(nodes: readonly WorkbenchFlowNode[], point: { x: number; y: number }): WorkbenchFlowNode | null {
  for (const n of nodes) {
    if (n.type === 'lane') continue;
    const w = n.width ?? 0;
    const h = n.height ?? 0;
    if (point.x >= n.position.x && point.x <= n.position.x + w && point.y >= n.position.y && point.y <= n.position.y + h) return n;
  }
  return null;
}

export function OverviewCanvas({ nodes, edges, drawNodes, selectedNodeId }: OverviewProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const store = useStoreApi();
  const shapes = useMemo(() => geometry(nodes, edges), [nodes, edges]);

  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    let frame = 0;
    const draw = () => {
      frame = 0;
      const { transform, width, height } = store.getState();
      paint(canvas, context, { shapes, transform, width, height, drawNodes, selectedNodeId });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    draw();
    // Zoom, pan and resize redraw on the next frame, whatever the number of store changes meanwhile.
    const unsubscribe = store.subscribe((s, before) => {
      if (s.transform !== before.transform || s.width !== before.width || s.height !== before.height) schedule();
    });
    // The palette follows the OS theme: a switch repaints with the other colours.
    const dark = matchMedia('(prefers-color-scheme: dark)');
    dark.addEventListener('change', schedule);
    return () => {
      unsubscribe();
      dark.removeEventListener('change', schedule);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [store, shapes, drawNodes, selectedNodeId]);

  return <canvas ref={ref} className="graph-overview" aria-hidden="true" data-testid="graph-overview" data-nodes={drawNodes ? 'canvas' : 'dom'} data-selected={selectedNodeId ?? ''} />;
}

export type View = { left: number; top: number; right: number; bottom: number };
/** What `curve` draws into: a Path2D in the view, a recorder in the tests. */
export type PathSink = Pick<Path2D, 'moveTo' | 'lineTo' | 'bezierCurveTo'>;

/** Samples along a curve reaching far out of view: enough that its pieces in view read as a curve. */
const SAMPLES = 96;

/**
 * React Flow's bezier between a left and a right handle (control points half the gap out). A
 * curve from a claim far off screen is added only where it crosses the view (as short polylines):
 * dashing the whole of a curve 50,000 units long cost 150 ms a frame for a few dozen edges.
 */
export function curve(path: PathSink, s: Segment, view: View): void {
  const bend = Math.abs(s.sx - s.tx) / 2;
  const [c1x, c1y, c2x, c2y] = [s.sx - bend, s.sy, s.tx + bend, s.ty];
  const w = view.right - view.left;
  const h = view.bottom - view.top;
  const near = { left: view.left - w, top: view.top - h, right: view.right + w, bottom: view.bottom + h };
  const inside = (x: number, y: number) => x >= near.left && x <= near.right && y >= near.top && y <= near.bottom;
  if (inside(s.sx, s.sy) && inside(s.tx, s.ty)) {
    path.moveTo(s.sx, s.sy);
    path.bezierCurveTo(c1x, c1y, c2x, c2y, s.tx, s.ty);
    return;
  }
  let drawing = false;
  for (let i = 0; i <= SAMPLES; i++) {
    const t = i / SAMPLES;
    const u = 1 - t;
    const x = u * u * u * s.sx + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * s.tx;
    const y = u * u * u * s.sy + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * s.ty;
    if (!inside(x, y)) {
      if (drawing) path.lineTo(x, y);
      drawing = false;
      continue;
    }
    if (drawing) path.lineTo(x, y);
    else path.moveTo(x, y);
    drawing = true;
  }
}

interface Scene {
  shapes: ReturnType<typeof geometry>;
  transform: [number, number, number];
  width: number;
  height: number;
  drawNodes: boolean;
  selectedNodeId: string | null;
}

function paint(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, { shapes, transform, width, height, drawNodes, selectedNodeId }: Scene): void {
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const [x, y, zoom] = transform;
  if (zoom <= 0 || width === 0 || height === 0) return;
  ctx.setTransform(ratio * zoom, 0, 0, ratio * zoom, ratio * x, ratio * y);
  // What is in view, in flow coordinates: nothing outside it is stroked.
  const view: View = { left: -x / zoom, top: -y / zoom, right: (width - x) / zoom, bottom: (height - y) / zoom };
  const compact = zoom < COMPACT_BELOW;
  const style = getComputedStyle(canvas);
  const resolved = new Map<string, string>();
  const colour = (name: string) => {
    if (!resolved.has(name)) resolved.set(name, style.getPropertyValue(name).trim() || '#888');
    return resolved.get(name)!;
  };

  const inView = (s: Segment) => Math.max(s.sx, s.tx) >= view.left && Math.min(s.sx, s.tx) <= view.right && Math.max(s.sy, s.ty) >= view.top && Math.min(s.sy, s.ty) <= view.bottom;
  const shown = shapes.groups.map((group) => ({ ...group, segments: group.segments.filter(inView) }));
  // As BindingEdge: dashes only where they can be read, and only while few enough edges are in
  // view: rasterising dashes along thousands of curves took 150-200 ms a frame without a GPU.
  const edgesInView = shown.reduce((n, g) => n + g.segments.length, 0);
  const dashed = !compact && edgesInView <= DASHED_EDGES_MAX;
  // What is drawn, for tests and benches (the canvas has no DOM to count).
  canvas.dataset.edgesInView = String(edgesInView);
  canvas.dataset.dashed = String(dashed);
  for (const group of shown) {
    const look = RELATION_STYLE[group.relation];
    const stroke = colour(look.color.slice(4, -1));
    ctx.globalAlpha = group.dimmed ? 0.15 : 1;
    ctx.strokeStyle = stroke;
    ctx.fillStyle = stroke;
    ctx.lineWidth = look.width;
    ctx.setLineDash(dashed && look.dash ? look.dash.split(' ').map(Number) : []);
    const lines = new Path2D();
    const heads = new Path2D();
    const head = 3.5 * look.width;
    for (const s of group.segments) {
      curve(lines, s, view);
      heads.moveTo(s.tx, s.ty);
      heads.lineTo(s.tx + 2 * head, s.ty - head);
      heads.lineTo(s.tx + 2 * head, s.ty + head);
      heads.closePath();
    }
    ctx.stroke(lines);
    ctx.setLineDash([]);
    ctx.fill(heads);
  }
  ctx.globalAlpha = 1;
  if (!drawNodes) return;

  const panel = colour('--panel');
  const line = colour('--line-strong');
  const ink = colour('--ink');
  const ring = colour('--accent');
  ctx.lineWidth = 1;
  for (const b of shapes.boxes) {
    if (b.x > view.right || b.x + b.w < view.left || b.y > view.bottom || b.y + b.h < view.top) continue;
    ctx.globalAlpha = b.dimmed ? 0.35 : 1;
    if (b.kind === 'lane') {
      ctx.fillStyle = colour('--muted');
      ctx.font = '600 20px system-ui, sans-serif';
      ctx.fillText(b.label, b.x, b.y + b.h * 0.7, b.w);
      continue;
    }
    ctx.fillStyle = panel;
    ctx.fillRect(b.x, b.y, b.w, b.h);
    ctx.strokeStyle = b.id === selectedNodeId ? ring : line;
    ctx.lineWidth = b.id === selectedNodeId ? 6 : 1;
    ctx.strokeRect(b.x, b.y, b.w, b.h);
    const mark = colour(b.mark);
    ctx.fillStyle = mark;
    ctx.fillRect(b.x, b.y, b.kind === 'claim' ? 10 : 8, b.h);
    // As the compact badges: the status or state large enough to read, then the id.
    ctx.font = '700 26px system-ui, sans-serif';
    ctx.fillText(b.word, b.x + 20, b.y + 36, b.w - 30);
    ctx.fillStyle = ink;
    ctx.font = '20px ui-monospace, monospace';
    ctx.fillText(b.label, b.x + 20, b.y + 66, b.w - 30);
  }
  ctx.globalAlpha = 1;
}
