import { describe, expect, it } from 'vitest';
import { curve, nodeAt, type PathSink, type View } from './OverviewCanvas';
import { LAYOUT, type WorkbenchFlowNode } from './toFlow';

/** Records what a curve adds to a path. */
function recorder() {
  const calls: { op: 'moveTo' | 'lineTo' | 'bezierCurveTo'; x: number; y: number }[] = [];
  const sink: PathSink = {
    moveTo: (x, y) => void calls.push({ op: 'moveTo', x, y }),
    lineTo: (x, y) => void calls.push({ op: 'lineTo', x, y }),
    bezierCurveTo: (_a, _b, _c, _d, x, y) => void calls.push({ op: 'bezierCurveTo', x, y }),
  };
  return { sink, calls };
}

const view: View = { left: 0, top: 0, right: 1000, bottom: 600 };

describe('overview canvas', () => {
  it('picks the node drawn under a point, nothing between nodes', () => {
    // Where toFlow places a claim and its evidence, with its fixed sizes (only the geometry is read).
    const claimNode = { id: 'claim:cl-a', type: 'claim', position: { x: LAYOUT.claimX, y: 0 }, width: LAYOUT.claimWidth, height: LAYOUT.claimHeight } as WorkbenchFlowNode;
    const revisionNode = { id: 'rev:ev-1@1', type: 'evidence', position: { x: LAYOUT.evidenceX, y: 32 }, width: LAYOUT.evidenceWidth, height: LAYOUT.evidenceHeight } as WorkbenchFlowNode;
    const lane = { id: 'lane', type: 'lane', position: { x: 0, y: 0 }, width: 2000, height: 2000 } as WorkbenchFlowNode;
    const nodes = [lane, claimNode, revisionNode];
    expect(nodeAt(nodes, { x: claimNode.position.x + 10, y: claimNode.position.y + 10 })?.id).toBe(claimNode.id);
    expect(nodeAt(nodes, { x: revisionNode.position.x + LAYOUT.evidenceWidth - 1, y: revisionNode.position.y + 1 })?.id).toBe(revisionNode.id);
    // The gap between the columns.
    expect(nodeAt(nodes, { x: LAYOUT.claimWidth + 20, y: claimNode.position.y + 10 })).toBeNull();
  });

  it('a binding near the view is one bezier from the evidence to the claim', () => {
    const { sink, calls } = recorder();
    curve(sink, { sx: 560, sy: 40, tx: 280, ty: 75 }, view);
    expect(calls).toEqual([
      { op: 'moveTo', x: 560, y: 40 },
      { op: 'bezierCurveTo', x: 280, y: 75 },
    ]);
  });

  it('a binding to a claim far off screen adds only the pieces near the view, so dashing costs what is seen', () => {
    const { sink, calls } = recorder();
    curve(sink, { sx: 560, sy: 300, tx: 280, ty: 50_000 }, view);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.filter((c) => c.op === 'bezierCurveTo')).toHaveLength(0);
    // Every point added but the one that leaves the near region lies within a view's size of the view.
    const near = (c: { x: number; y: number }) => c.x >= -1000 && c.x <= 2000 && c.y >= -600 && c.y <= 1200;
    expect(calls.filter((c) => !near(c)).length).toBeLessThanOrEqual(1);
    expect(calls[0]).toEqual({ op: 'moveTo', x: 560, y: 300 });
  });

  it('a binding between two places far from the view adds nothing', () => {
    const { sink, calls } = recorder();
    curve(sink, { sx: 560, sy: 40_000, tx: 280, ty: 50_000 }, view);
    expect(calls).toEqual([]);
  });
});
