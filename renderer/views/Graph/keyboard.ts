/** Arrow-key moves between graph nodes: pure, so they are tested without a canvas. */

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface Placed {
  id: string;
  position: { x: number; y: number };
  width?: number;
  height?: number;
}

export const ARROWS: Readonly<Record<string, Direction>> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

const centre = (n: Placed) => ({ x: n.position.x + (n.width ?? 0) / 2, y: n.position.y + (n.height ?? 0) / 2 });

/**
 * The node an arrow key moves to from `fromId`: up and down stay in the column (nearest above or
 * below), left and right go to the nearest column on that side, to the node closest in height.
 * From nothing, any arrow starts at the first node. null when there is nowhere to go.
 */
export function nextNode(nodes: readonly Placed[], fromId: string | null, dir: Direction): string | null {
  const from = nodes.find((n) => n.id === fromId);
  if (!from) return nodes[0]?.id ?? null;
  const at = centre(from);
  const vertical = dir === 'up' || dir === 'down';
  const candidates = nodes
    .filter((n) => n.id !== from.id)
    .map((n) => ({ n, c: centre(n) }))
    .filter(({ c }) => {
      if (vertical) return c.x === at.x && (dir === 'down' ? c.y > at.y : c.y < at.y);
      return dir === 'right' ? c.x > at.x : c.x < at.x;
    });
  if (candidates.length === 0) return null;
  if (!vertical) {
    // The nearest column on that side first, then the node there closest in height.
    const column = Math.min(...candidates.map(({ c }) => Math.abs(c.x - at.x)));
    const inColumn = candidates.filter(({ c }) => Math.abs(c.x - at.x) === column);
    return inColumn.reduce((best, k) => (Math.abs(k.c.y - at.y) < Math.abs(best.c.y - at.y) ? k : best)).n.id;
  }
  return candidates.reduce((best, k) => (Math.abs(k.c.y - at.y) < Math.abs(best.c.y - at.y) ? k : best)).n.id;
}
