import { describe, expect, it } from 'vitest';
import { nextNode, type Placed } from './keyboard';

const node = (id: string, x: number, y: number): Placed => ({ id, position: { x, y }, width: 100, height: 50 });
// Two claims on the left, three revisions on the right, one more further right.
const nodes = [node('c1', 0, 0), node('c2', 0, 300), node('r1', 500, 0), node('r2', 500, 100), node('r3', 500, 320), node('u1', 900, 10)];

describe('nextNode', () => {
  it('moves up and down within the column, to the nearest node, and stops at its ends', () => {
    expect(nextNode(nodes, 'r1', 'down')).toBe('r2');
    expect(nextNode(nodes, 'r2', 'down')).toBe('r3');
    expect(nextNode(nodes, 'r3', 'down')).toBeNull();
    expect(nextNode(nodes, 'r2', 'up')).toBe('r1');
    expect(nextNode(nodes, 'c1', 'up')).toBeNull();
    expect(nextNode(nodes, 'c1', 'down')).toBe('c2');
  });

  it('moves left and right to the nearest column, to the node closest in height', () => {
    expect(nextNode(nodes, 'c2', 'right')).toBe('r3');
    expect(nextNode(nodes, 'c1', 'right')).toBe('r1');
    expect(nextNode(nodes, 'r2', 'left')).toBe('c1');
    expect(nextNode(nodes, 'r1', 'right')).toBe('u1');
    expect(nextNode(nodes, 'u1', 'right')).toBeNull();
    expect(nextNode(nodes, 'c1', 'left')).toBeNull();
  });

  it('starts at the first node when nothing is selected, and goes nowhere in an empty graph', () => {
    expect(nextNode(nodes, null, 'down')).toBe('c1');
    expect(nextNode(nodes, 'gone', 'left')).toBe('c1');
    expect(nextNode([], null, 'down')).toBeNull();
  });
});
