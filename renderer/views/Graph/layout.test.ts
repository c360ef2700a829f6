import { describe, expect, it } from 'vitest';
import { barycentricPositions, LAYOUT, layeredPositions } from './layout';

const centreY = (p: { y: number }, height: number) => p.y + height / 2;

/** Pairs of edges whose ends are in opposite vertical order: they cross. */
function crossings(pos: Map<string, { y: number }>, edges: { source: string; target: string }[]): number {
  let n = 0;
  for (const [i, a] of edges.entries()) {
    for (const b of edges.slice(i + 1)) {
      const left = pos.get(a.target)!.y - pos.get(b.target)!.y;
      const right = pos.get(a.source)!.y - pos.get(b.source)!.y;
      if (left * right < 0) n++;
    }
  }
  return n;
}

describe('layeredPositions', () => {
  // Two claims, each with its own evidence, the evidence listed interleaved: a column layout in
  // list order would cross every pair of bindings.
  const claims = ['claim:A', 'claim:B'];
  const revisions = ['rev:a1', 'rev:b1', 'rev:a2', 'rev:b2', 'rev:a3'];
  const edges = revisions.map((r) => ({ source: r, target: r.startsWith('rev:a') ? 'claim:A' : 'claim:B' }));
  const pos = layeredPositions(claims, revisions, edges);

  it('groups each claim’s evidence beside it: no binding crosses another', () => {
    expect(crossings(pos, edges)).toBe(0);
  });

  it('puts claims in the claim column and evidence in the evidence column, without overlap', () => {
    for (const c of claims) expect(pos.get(c)!.x).toBe(LAYOUT.claimX);
    for (const r of revisions) expect(pos.get(r)!.x).toBe(LAYOUT.evidenceX);
    const ys = revisions.map((r) => pos.get(r)!.y).sort((a, b) => a - b);
    for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(LAYOUT.evidenceHeight + LAYOUT.rowGap);
    expect(Math.min(...[...pos.values()].map((p) => p.y))).toBe(0);
  });

  it('sets each claim level with its evidence', () => {
    for (const c of claims) {
      const own = edges.filter((e) => e.target === c).map((e) => centreY(pos.get(e.source)!, LAYOUT.evidenceHeight));
      const y = centreY(pos.get(c)!, LAYOUT.claimHeight);
      expect(y).toBeGreaterThanOrEqual(Math.min(...own) - 1);
      expect(y).toBeLessThanOrEqual(Math.max(...own) + 1);
    }
  });

  it('is deterministic, and places a claim with nothing drawn below the rest', () => {
    expect(layeredPositions(claims, revisions, edges)).toEqual(pos);
    const withLone = layeredPositions([...claims, 'claim:C'], revisions, edges);
    const bottom = Math.max(...[...pos.entries()].map(([id, p]) => p.y + (id.startsWith('claim:') ? LAYOUT.claimHeight : LAYOUT.evidenceHeight)));
    expect(withLone.get('claim:C')).toEqual({ x: LAYOUT.claimX, y: bottom + LAYOUT.bandGap });
  });
});

describe('barycentricPositions (graphs past LARGE_GRAPH_NODES)', () => {
  // 1,500 claims and 4,000 revisions, each revision bound to one or two claims.
  const claims = Array.from({ length: 1_500 }, (_, i) => `claim:${i}`);
  const revisions = Array.from({ length: 4_000 }, (_, i) => `rev:${i}`);
  const edges = revisions.flatMap((r, i) => [{ source: r, target: claims[(i * 7) % 1_500]! }, ...(i % 5 === 0 ? [{ source: r, target: claims[(i * 13) % 1_500]! }] : [])]);

  it('lays out 5,500 nodes in well under a second, every node placed once, columns without overlap', () => {
    const started = performance.now();
    const pos = layeredPositions(claims, revisions, edges);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(pos.size).toBe(claims.length + revisions.length);
    for (const [column, height] of [[claims, LAYOUT.claimHeight], [revisions, LAYOUT.evidenceHeight]] as const) {
      const tops = column.map((id) => pos.get(id)!.y).sort((a, b) => a - b);
      for (let i = 1; i < tops.length; i++) expect(tops[i]! - tops[i - 1]!).toBeGreaterThanOrEqual(height);
    }
  });

  it('orders the columns to cross far less than list order does', () => {
    const small = { claims: claims.slice(0, 200), revisions: revisions.slice(0, 400) };
    const kept = edges.filter((e) => small.claims.includes(e.target) && small.revisions.includes(e.source));
    const listOrder = new Map([...small.claims.map((id, i) => [id, { y: i * 160 }] as const), ...small.revisions.map((id, i) => [id, { y: i * 96 }] as const)]);
    expect(crossings(barycentricPositions(small.claims, small.revisions, kept), kept)).toBeLessThan(crossings(listOrder, kept) / 2);
  });
});
