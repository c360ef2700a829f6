import type { BenchMode } from './mode';

/** What bench/graph-render.ts reads from the page (through page.evaluate). */
export interface GraphBenchProbe {
  mode: BenchMode;
  /** performance.now() (ms since navigation start) once the first frame showing a node was painted. */
  firstRenderMs: number | null;
  nodesAtFirstRender: number | null;
  /** toFlow with the bench's layout, timed where the page calls it itself (#plain). */
  toFlowMs: number | null;
  /** Resolves once `calm` frames in a row took under 34 ms, or after `maxMs`. */
  settle: (calm: number, maxMs: number) => Promise<void>;
  startFrames: () => void;
  /** requestAnimationFrame deltas since startFrames, in ms. */
  stopFrames: () => number[];
  /** What the DOM holds, and the viewport's zoom. */
  counts: () => { nodes: number; edges: number; edgeLabels: number; edgesOnCanvas: number; zoom: number };
  /** A point over the canvas that no node covers (a drag there pans in every mode), or null. */
  panPoint: () => { x: number; y: number } | null;
}

declare global {
  interface Window {
    graphBench?: GraphBenchProbe;
  }
}

const viewportZoom = () => {
  const viewport = document.querySelector('.react-flow__viewport');
  return viewport ? new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a : NaN;
};

const isShown = (node: Element | null) => node instanceof HTMLElement && node.style.visibility !== 'hidden';

/**
 * Watches every frame until one starts with a node in the DOM that React Flow shows (it hides a
 * node until it knows its size), then takes the time in the task after that frame's paint.
 */
export function installProbe(mode: BenchMode): GraphBenchProbe {
  let frames: number[] | null = null;
  const probe: GraphBenchProbe = {
    mode,
    firstRenderMs: null,
    nodesAtFirstRender: null,
    toFlowMs: null,
    settle: (calm, maxMs) =>
      new Promise((done) => {
        const until = performance.now() + maxMs;
        let last = performance.now();
        let inARow = 0;
        const tick = (now: number) => {
          inARow = now - last < 34 ? inARow + 1 : 0;
          last = now;
          if (inARow >= calm || now > until) done();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    startFrames: () => {
      const recorded: number[] = [];
      frames = recorded;
      let last = performance.now();
      const tick = (now: number) => {
        if (frames !== recorded) return;
        recorded.push(now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    stopFrames: () => {
      const recorded = frames ?? [];
      frames = null;
      return recorded;
    },
    counts: () => ({
      nodes: document.querySelectorAll('.react-flow__node').length,
      edges: document.querySelectorAll('.react-flow__edge').length,
      edgeLabels: document.querySelectorAll('.react-flow__edgelabel-renderer > *').length,
      // A large graph's bindings in view, stroked on the overview canvas (renderer/views/Graph/OverviewCanvas.tsx).
      edgesOnCanvas: Number(document.querySelector<HTMLElement>('.graph-overview')?.dataset.edgesInView ?? 0),
      zoom: viewportZoom(),
    }),
    panPoint: () => {
      const box = document.querySelector('.react-flow')?.getBoundingClientRect();
      if (!box) return null;
      for (let i = 1; i < 12; i++) {
        for (let j = 1; j < 12; j++) {
          const x = box.left + (box.width * i) / 12;
          const y = box.top + (box.height * j) / 12;
          const hit = document.elementFromPoint(x, y);
          if (hit?.closest('.react-flow') && !hit.closest('.react-flow__node, .react-flow__panel')) return { x, y };
        }
      }
      return null;
    },
  };
  const afterPaint = new MessageChannel();
  afterPaint.port1.onmessage = () => {
    probe.firstRenderMs = performance.now();
    probe.nodesAtFirstRender = probe.counts().nodes;
  };
  const watch = () => {
    if (isShown(document.querySelector('.react-flow__node'))) afterPaint.port2.postMessage(null);
    else requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
  window.graphBench = probe;
  return probe;
}
