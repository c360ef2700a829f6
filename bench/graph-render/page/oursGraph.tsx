import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useWorkbench } from '../../../renderer/state/store';
import { GraphView } from '../../../renderer/views/Graph/GraphView';
// After the view, as in renderer/main.tsx: the app's sheets come after React Flow's and win ties.
import '../../../renderer/theme.css';
import '../../../renderer/styles.css';
import type { GraphNeighbourhood } from '../seedGraph';

/** The app's graph view, unchanged, on the seeded neighbourhood. */
export function mountOurs(root: HTMLElement, graph: GraphNeighbourhood): void {
  // Where a graph:neighbourhood answer leaves the store: the view draws it and asks the host nothing.
  useWorkbench.setState({ graph, graphLoading: false, graphError: null });
  createRoot(root).render(
    <StrictMode>
      {/* The app's frame (renderer/App.tsx): the view's main area beside the 180 px nav column. */}
      <div className="app">
        <div />
        <main className="main">
          <GraphView />
        </main>
      </div>
    </StrictMode>,
  );
}
