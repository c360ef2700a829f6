import { Graph as DagreGraph, layout as dagreLayout } from '@dagrejs/dagre';
import { benchMode } from './mode';
import { TwoColumnGraph, twoColumnLayout } from './twoColumnLayout';

/**
 * What renderer/views/Graph/layout.ts gets for '@dagrejs/dagre' in this page (the vite config
 * sends only that import here): dagre itself under #ours, so the view is measured as it is;
 * the two-column layout under #ours-render and #plain, which then share identical positions.
 */
const asTheAppDoes = benchMode() === 'ours';
export const Graph = asTheAppDoes ? DagreGraph : TwoColumnGraph;
export const layout = asTheAppDoes ? dagreLayout : twoColumnLayout;
