import { describe, expect, it } from 'vitest';
import { LAYOUT, layeredPositions } from './layout';

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
