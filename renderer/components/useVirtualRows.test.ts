import { describe, expect, it } from 'vitest';
import { rowWindow } from './useVirtualRows';

describe('rowWindow', () => {
  it('draws the rows in view and the overscan, and spaces the rest', () => {
    expect(rowWindow(50_000, 40, 4_000, 800, 5)).toEqual({ start: 95, end: 125, padTop: 3_800, padBottom: (50_000 - 125) * 40, width: 0 });
  });

  it('clamps at both ends and never draws more rows than there are', () => {
    expect(rowWindow(10, 40, 0, 800, 5)).toEqual({ start: 0, end: 10, padTop: 0, padBottom: 0, width: 0 });
    expect(rowWindow(100, 40, 99_999, 800, 5)).toEqual({ start: 100, end: 100, padTop: 4_000, padBottom: 0, width: 0 });
    expect(rowWindow(0, 40, 0, 800, 5)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0, width: 0 });
  });

  it('the drawn rows and spacers always add up to the whole list', () => {
    for (const [count, top, height] of [[1_000, 12_345, 700], [37, 200, 300], [5, 0, 10_000]] as const) {
      const w = rowWindow(count, 52, top, height, 12);
      expect(w.padTop / 52 + (w.end - w.start) + w.padBottom / 52).toBe(count);
    }
  });
});
