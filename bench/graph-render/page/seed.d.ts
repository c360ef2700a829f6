declare module 'virtual:graph-seed' {
  import type { GraphNeighbourhood } from '../seedGraph';
  /** The seeded neighbourhood (seedGraph.ts), parsed from JSON text built with the page. */
  const graph: GraphNeighbourhood;
  export default graph;
}
