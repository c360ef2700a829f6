import { getNodesBounds, Panel, useReactFlow, useStoreApi } from '@xyflow/react';
import { useEffect, useMemo, useRef } from 'react';
import type { WorkbenchFlowNode } from './toFlow';

/** The map's size on screen, in CSS pixels (React Flow's MiniMap default). */
export const MAP_WIDTH = 200;
export const MAP_HEIGHT = 150;

export interface MapScale {
  scale: number;
  /** Flow coordinates of the map's top-left corner. */
  left: number;
  top: number;
}

/** How the flow's `bounds` fit the map, whole and centred. */
export function mapScale(bounds: { x: number; y: number; width: number; height: number }): MapScale {
  const scale = Math.min(MAP_WIDTH / Math.max(bounds.width, 1), MAP_HEIGHT / Math.max(bounds.height, 1));
  return { scale, left: bounds.x - (MAP_WIDTH / scale - bounds.width) / 2, top: bounds.y - (MAP_HEIGHT / scale - bounds.height) / 2 };
}

/** The flow point under a point of the map. */
export const flowPointOf = (m: MapScale, px: number, py: number) => ({ x: m.left + px / m.scale, y: m.top + py / m.scale });

/**
 * The overview map of a large graph zoomed out to badges. React Flow's MiniMap draws the nodes
 * React Flow holds, and then it holds none (OverviewCanvas draws them): this map draws every node
 * placed as a dot in the MiniMap's colours, with the view's rectangle; a click or a drag on it
 * moves the view there, as the MiniMap's panning does.
 */
export function OverviewMiniMap({ nodes }: { nodes: readonly WorkbenchFlowNode[] }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const store = useStoreApi();
  const flow = useReactFlow();
  const m = useMemo(() => mapScale(getNodesBounds([...nodes])), [nodes]);

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = MAP_WIDTH * ratio;
    canvas.height = MAP_HEIGHT * ratio;
    let frame = 0;
    const draw = () => {
      frame = 0;
      const style = getComputedStyle(canvas);
      const colour = (name: string) => style.getPropertyValue(name).trim() || '#888';
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, MAP_WIDTH, MAP_HEIGHT);
      for (const type of ['evidence', 'claim'] as const) {
        ctx.fillStyle = colour(`--minimap-${type}`);
        for (const n of nodes) {
          if (n.type !== type) continue;
          const w = Math.max(1.5, (n.width ?? 0) * m.scale);
          const h = Math.max(1.5, (n.height ?? 0) * m.scale);
          ctx.fillRect((n.position.x - m.left) * m.scale, (n.position.y - m.top) * m.scale, w, h);
        }
      }
      const { transform, width, height } = store.getState();
      const [x, y, zoom] = transform;
      if (zoom <= 0) return;
      // At least a few pixels either way: on a tall case the view is a sliver of the map.
      const view = { x: (-x / zoom - m.left) * m.scale, y: (-y / zoom - m.top) * m.scale, w: Math.max(4, (width / zoom) * m.scale), h: Math.max(4, (height / zoom) * m.scale) };
      canvas.dataset.view = [view.x, view.y, view.w, view.h].map((v) => v.toFixed(1)).join(' ');
      ctx.strokeStyle = colour('--accent');
      ctx.lineWidth = 1.5;
      ctx.strokeRect(view.x, view.y, view.w, view.h);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    draw();
    const unsubscribe = store.subscribe((s, before) => {
      if (s.transform !== before.transform || s.width !== before.width || s.height !== before.height) schedule();
    });
    return () => {
      unsubscribe();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [nodes, m, store]);

  const moveTo = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const at = flowPointOf(m, e.clientX - box.left, e.clientY - box.top);
    void flow.setCenter(at.x, at.y, { zoom: flow.getZoom() });
  };

  return (
    <Panel position="bottom-right" className="graph-overview-map">
      <canvas
        ref={ref}
        style={{ width: MAP_WIDTH, height: MAP_HEIGHT }}
        role="img"
        aria-label={`Overview of the graph: ${nodes.length.toLocaleString('en')} nodes; click to move the view there`}
        data-testid="graph-minimap"
        data-nodes={nodes.filter((n) => n.type !== 'lane').length}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          moveTo(e);
        }}
        onPointerMove={(e) => {
          if (e.buttons === 1) moveTo(e);
        }}
      />
    </Panel>
  );
}
