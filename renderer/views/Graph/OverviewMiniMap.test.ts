import { describe, expect, it } from 'vitest';
import { flowPointOf, MAP_HEIGHT, MAP_WIDTH, mapScale } from './OverviewMiniMap';

describe('overview map', () => {
  it('fits the whole flow, centred, and a point of the map names the flow point drawn there', () => {
    // A tall case: 1,000 wide, 20,000 high; the height decides the scale and the width is centred.
    const bounds = { x: -100, y: 50, width: 1000, height: 20_000 };
    const m = mapScale(bounds);
    expect(m.scale).toBeCloseTo(MAP_HEIGHT / 20_000);
    expect(flowPointOf(m, MAP_WIDTH / 2, MAP_HEIGHT / 2)).toEqual({ x: 400, y: 10_050 });
    expect(flowPointOf(m, MAP_WIDTH / 2, 0).y).toBeCloseTo(50);
    expect(flowPointOf(m, MAP_WIDTH / 2, MAP_HEIGHT).y).toBeCloseTo(20_050);
    // A wide one: the width decides.
    const wide = mapScale({ x: 0, y: 0, width: 8000, height: 100 });
    expect(wide.scale).toBeCloseTo(MAP_WIDTH / 8000);
    expect(flowPointOf(wide, 0, MAP_HEIGHT / 2)).toEqual({ x: 0, y: 50 });
  });

  it('a flow of one point still has a scale', () => {
    const m = mapScale({ x: 10, y: 10, width: 0, height: 0 });
    expect(Number.isFinite(m.scale)).toBe(true);
    expect(flowPointOf(m, MAP_WIDTH / 2, MAP_HEIGHT / 2)).toEqual({ x: 10, y: 10 });
  });
});
