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
 * Past this many nodes the graph is drawn for overview: dagre's ranking grows faster than linearly
 * (1,244 nodes took 25 s, 5,000 did not finish in 5 minutes), so the two columns are ordered by
 * the barycentre heuristic instead (linear after a sort), only the nodes in view are mounted, and
 * edges drop their dashes while zoomed out to badges.
 */
export const LARGE_GRAPH_NODES = 400;

/**
 * Layered layout of a neighbourhood (dagre; past LARGE_GRAPH_NODES, barycentric): claims in one column, the evidence bound to them in
 * the next, each column ordered so that bindings cross as little as possible and a claim sits
 * level with its evidence. Claims with no evidence drawn stack below the claim column. Pure and
 * deterministic: the same ids in the same order always give the same positions (callers pass
 * them in a canonical order).
 */
export function layeredPositions(claimIds: readonly string[], revisionIds: readonly string[], edges: readonly { source: string; target: string }[]): Map<string, { x: number; y: number }> {
  if (claimIds.length + revisionIds.length > LARGE_GRAPH_NODES) return barycentricPositions(claimIds, revisionIds, edges);
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

/**
 * The two columns of a large graph in linear time: evidence ordered by the mean position of the
 * claims it is bound to, claims then by the mean position of their evidence (one sweep each way of
 * the layered-layout barycentre heuristic), stacked top to bottom, each revision moved down to sit
 * level with its claims where the column leaves room. Claims with nothing drawn go below.
 */
export function barycentricPositions(claimIds: readonly string[], revisionIds: readonly string[], edges: readonly { source: string; target: string }[]): Map<string, { x: number; y: number }> {
  const L = LAYOUT;
  const claimsOf = new Map<string, string[]>();
  const revisionsOf = new Map<string, string[]>();
  for (const e of edges) {
    claimsOf.set(e.source, [...(claimsOf.get(e.source) ?? []), e.target]);
    revisionsOf.set(e.target, [...(revisionsOf.get(e.target) ?? []), e.source]);
  }
  const mean = (ids: readonly string[], rank: ReadonlyMap<string, number>) => ids.reduce((sum, id) => sum + (rank.get(id) ?? 0), 0) / ids.length;
  const byBarycentre = (ids: readonly string[], neighbours: ReadonlyMap<string, string[]>, rank: ReadonlyMap<string, number>) =>
    ids
      .map((id, i) => ({ id, i, at: mean(neighbours.get(id)!, rank) }))
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .map((x) => x.id);
  const ranks = (ids: readonly string[]) => new Map(ids.map((id, i) => [id, i]));

  const linkedClaims = claimIds.filter((id) => revisionsOf.has(id));
  const linkedRevisions = revisionIds.filter((id) => claimsOf.has(id));
  const revisions = byBarycentre(linkedRevisions, claimsOf, ranks(linkedClaims));
  const claims = byBarycentre(linkedClaims, revisionsOf, ranks(revisions));

  const out = new Map<string, { x: number; y: number }>();
  let y = 0;
  for (const id of claims) {
    out.set(id, { x: L.claimX, y });
    y += L.claimHeight + L.rowGap;
  }
  let next = 0;
  for (const id of revisions) {
    const claimTops = claimsOf.get(id)!.map((c) => out.get(c)!.y);
    // Level with the middle of its claims, or as high below the revision above as that allows.
    const wanted = claimTops.reduce((a, b) => a + b, 0) / claimTops.length + (L.claimHeight - L.evidenceHeight) / 2;
    const at = Math.max(next, Math.round(wanted));
    out.set(id, { x: L.evidenceX, y: at });
    next = at + L.evidenceHeight + L.rowGap;
  }
  const bottom = Math.max(y, next);
  y = out.size > 0 ? bottom + L.bandGap : 0;
  for (const id of claimIds) {
    if (revisionsOf.has(id)) continue;
    out.set(id, { x: L.claimX, y });
    y += L.claimHeight + L.bandGap;
  }
  return out;
}
