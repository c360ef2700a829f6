/**
 * A stand-in for dagre with the part of its API that renderer/views/Graph/layout.ts calls, laying
 * out in linear time what layout.ts asks of dagre: each claim (an edge's target) level with the
 * evidence bound to it (the edge's sources), band under band in the order the claims and edges
 * came. layout.ts still turns these centres into the positions the view draws.
 */
type NodeLabel = { width: number; height: number; x: number; y: number };

export class TwoColumnGraph {
  private nodesep = 50;
  private ranksep = 50;
  private readonly labels = new Map<string, NodeLabel>();
  private readonly sourcesOf = new Map<string, string[]>();

  setGraph(settings: { nodesep?: number; ranksep?: number }): this {
    this.nodesep = settings.nodesep ?? this.nodesep;
    this.ranksep = settings.ranksep ?? this.ranksep;
    return this;
  }

  /** Edges carry no label here; kept for the call layout.ts makes. */
  setDefaultEdgeLabel(_label: () => object): this {
    return this;
  }

  setNode(id: string, size: { width: number; height: number }): this {
    this.labels.set(id, { ...size, x: 0, y: 0 });
    return this;
  }

  setEdge(source: string, target: string): this {
    const sources = this.sourcesOf.get(target) ?? [];
    sources.push(source);
    this.sourcesOf.set(target, sources);
    return this;
  }

  nodes(): string[] {
    return [...this.labels.keys()];
  }

  node(id: string): NodeLabel {
    const label = this.labels.get(id);
    if (!label) throw new Error(`twoColumnLayout: no node '${id}'; set it before asking for its position`);
    return label;
  }

  layout(): void {
    const placed = new Set<string>();
    const targetWidth = Math.max(0, ...[...this.sourcesOf.keys()].map((id) => this.node(id).width));
    let top = 0;
    const stack = (ids: readonly string[], x: number, bandTop: number, bandHeight: number) => {
      const height = ids.reduce((sum, id) => sum + this.node(id).height, 0) + this.nodesep * Math.max(0, ids.length - 1);
      let y = bandTop + (bandHeight - height) / 2;
      for (const id of ids) {
        const label = this.node(id);
        label.x = x + label.width / 2;
        label.y = y + label.height / 2;
        y += label.height + this.nodesep;
        placed.add(id);
      }
      return height;
    };
    for (const [target, sources] of this.sourcesOf) {
      const own = [...new Set(sources)].filter((id) => !placed.has(id));
      const ownHeight = own.reduce((sum, id) => sum + this.node(id).height, 0) + this.nodesep * Math.max(0, own.length - 1);
      const band = Math.max(this.node(target).height, ownHeight);
      stack([target], 0, top, band);
      stack(own, targetWidth + this.ranksep, top, band);
      top += band + this.nodesep;
    }
    // Nodes on no edge: one column below the bands.
    for (const id of this.nodes()) if (!placed.has(id)) top += stack([id], 0, top, this.node(id).height) + this.nodesep;
  }
}

export function twoColumnLayout(graph: TwoColumnGraph): void {
  graph.layout();
}
