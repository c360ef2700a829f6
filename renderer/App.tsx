import { useEffect } from 'react';
import { StatusBar } from './components/StatusBar';
import { NavBar } from './components/NavBar';
import { useWorkbench } from './state/store';
import { selectRefreshAll, selectView } from './state/selectors';
import { CasesView } from './views/Cases/CasesView';
import { AuditView } from './views/Audit/AuditView';
import { EvidenceView } from './views/Evidence/EvidenceView';
import { GraphView } from './views/Graph/GraphView';
import { DisputesView } from './views/Disputes/DisputesView';
import { QuarantineView } from './views/Quarantine/QuarantineView';
import { RemediationsView } from './views/Remediations/RemediationsView';
import { ReviewView } from './views/Review/ReviewView';
import type { View } from './state/types';

const VIEW_COMPONENTS: Record<View, () => React.JSX.Element> = {
  cases: CasesView,
  graph: GraphView,
  evidence: EvidenceView,
  review: ReviewView,
  disputes: DisputesView,
  quarantine: QuarantineView,
  remediations: RemediationsView,
  audit: AuditView,
};

export function App() {
  const view = useWorkbench(selectView);
  const refreshAll = useWorkbench(selectRefreshAll);
  useEffect(() => {
    void refreshAll();
  }, [refreshAll]);
  const Current = VIEW_COMPONENTS[view];
  return (
    <div className="app">
      <NavBar />
      <main className="main" data-testid={`view-${view}`}>
        <Current />
      </main>
      <StatusBar />
    </div>
  );
}
