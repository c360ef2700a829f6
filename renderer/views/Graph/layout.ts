import { Graph, layout } from '@dagrejs/dagre';

/** Sizes and gaps of the graph's nodes and columns (flow coordinates). */
export const LAYOUT = {
  claimX: 0,
  claimWidth: 280,
  claimHeight: 150,
  evidenceX: 560,
  evidenceWidth: 280,
  evidenceHeight: 86,
  rowGap: 10,
  bandGap: 48,
  unboundX: 960,
  laneHeight: 36,
} as const;

/**
 * Layered layout of a neighbourhood (dagre): claims in one column, the evidence bound to them in
 * the next, each column ordered so that bindings cross as little as possible and a claim sits
 * level with its evidence. Claims with no evidence drawn stack below the claim column. Pure and
 * deterministic: the same ids in the same order always give the same positions (callers pass
 * them in a canonical order).
 */
export function layeredPositions(claimIds: readonly string[], revisionIds: readonly string[], edges: readonly { source: string; target: string }[]): Map<string, { x: number; y: number }> {
  const L = LAYOUT;
  const linked = new Set(edges.flatMap((e) => [e.source, e.target]));
  const g = new Graph();
  // Right to left: an edge runs from evidence (its source) to the claim, so evidence takes the
  // right-hand rank; the gap between the ranks is the one between the columns.
  g.setGraph({ rankdir: 'RL', nodesep: L.rowGap, ranksep: L.evidenceX - L.claimX - L.claimWidth, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of claimIds) if (linked.has(id)) g.setNode(id, { width: L.claimWidth, height: L.claimHeight });
  for (const id of revisionIds) if (linked.has(id)) g.setNode(id, { width: L.evidenceWidth, height: L.evidenceHeight });
  for (const e of edges) g.setEdge(e.source, e.target);
  layout(g);

  const out = new Map<string, { x: number; y: number }>();
  const top = (id: string, height: number) => Math.round(g.node(id).y - height / 2);
  let minY = Infinity;
  for (const id of g.nodes()) minY = Math.min(minY, top(id, claimIds.includes(id) ? L.claimHeight : L.evidenceHeight));
  if (!Number.isFinite(minY)) minY = 0;
  let bottom = 0;
  for (const id of claimIds) {
    if (!linked.has(id)) continue;
    const y = top(id, L.claimHeight) - minY;
    out.set(id, { x: L.claimX, y });
    bottom = Math.max(bottom, y + L.claimHeight);
  }
  for (const id of revisionIds) {
    if (!linked.has(id)) continue;
    const y = top(id, L.evidenceHeight) - minY;
    out.set(id, { x: L.evidenceX, y });
    bottom = Math.max(bottom, y + L.evidenceHeight);
  }
  // Claims with nothing drawn to bind: below the others, in list order.
  let y = out.size > 0 ? bottom + L.bandGap : 0;
  for (const id of claimIds) {
    if (linked.has(id)) continue;
    out.set(id, { x: L.claimX, y });
    y += L.claimHeight + L.bandGap;
  }
  return out;
}
