/**
 * The page of the graph render bench (bench/graph-render.ts builds it through vite's JS API; it is
 * never part of the app). One page, the mode in the URL hash (page/mode.ts):
 *
 *   #ours         the app's GraphView as it is: toFlow, its dagre layout on render, our node and
 *                 edge types, styles and ReactFlow props
 *   #ours-render  the same view with dagre swapped for a linear two-column layout, so rendering
 *                 is measured apart from layout
 *   #plain        <ReactFlow nodes edges fitView> with default nodes and edges
 *
 * The page sources in `page/` are browser code: tsconfig.node.json leaves them out, and
 * bench/graph-render/tsconfig.json checks them against the renderer's settings (npm run typecheck
 * runs both).
 */
import react from '@vitejs/plugin-react';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { seedNeighbourhood } from './seedGraph';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '..', '..');
const SEED_MODULE = 'virtual:graph-seed';

/**
 * The seeded neighbourhood as the JSON text the page parses: the app receives the graph as JSON
 * too, and generating 15,000 objects in the page would put bench work into the timed first render.
 */
function seedGraphModule(): Plugin {
  return {
    name: 'graph-render-seed',
    resolveId: (source) => (source === SEED_MODULE ? `\0${SEED_MODULE}` : null),
    load: (id) => (id === `\0${SEED_MODULE}` ? `export default JSON.parse(${JSON.stringify(JSON.stringify(seedNeighbourhood()))});` : null),
  };
}

/**
 * layout.ts imports dagre; only that import is sent through page/dagreSwitch.ts, which hands back
 * real dagre under #ours and the bench's two-column layout under the other modes.
 */
function layoutSwitch(): Plugin {
  const layoutModule = resolve(ROOT, 'renderer', 'views', 'Graph', 'layout.ts');
  const switchModule = resolve(HERE, 'page', 'dagreSwitch.ts');
  return {
    name: 'graph-render-layout-switch',
    enforce: 'pre',
    resolveId: (source, importer) => (source === '@dagrejs/dagre' && importer !== undefined && resolve(importer.split('?')[0]!) === layoutModule ? switchModule : null),
  };
}

export default defineConfig({
  root: HERE,
  base: './',
  logLevel: 'warn',
  plugins: [react(), seedGraphModule(), layoutSwitch()],
  build: {
    // Outside the repository: out/ belongs to the app's build.
    outDir: join(tmpdir(), 'erwb-graph-render'),
    emptyOutDir: true,
    // The seed chunk is several MB by design.
    chunkSizeWarningLimit: 8_000,
    reportCompressedSize: false,
  },
});
