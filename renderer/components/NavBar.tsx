import { useShallow } from 'zustand/react/shallow';
import { selectActions, selectView } from '../state/selectors';
import { useWorkbench } from '../state/store';
import type { View } from '../state/types';
import { FileMenu } from './FileMenu';

export const VIEW_ITEMS: readonly { view: View; label: string }[] = [
  { view: 'cases', label: 'Cases' },
  { view: 'dashboard', label: 'Dashboard' },
  { view: 'intake', label: 'Intake' },
  { view: 'graph', label: 'Graph' },
  { view: 'timeline', label: 'Timeline' },
  { view: 'evidence', label: 'Evidence' },
  { view: 'review', label: 'Review' },
  { view: 'disputes', label: 'Disputes' },
  { view: 'quarantine', label: 'Quarantine' },
  { view: 'remediations', label: 'Remediations' },
  { view: 'whatif', label: 'What-if' },
  { view: 'audit', label: 'Audit' },
];

export function NavBar({ caseOpen }: { caseOpen: boolean }) {
  const view = useWorkbench(selectView);
  const { setView } = useWorkbench(useShallow(selectActions));
  return (
    <nav className="nav" aria-label="Workbench views">
      <div className="brand">Evidence Review<br />Workbench</div>
      <FileMenu enabled={caseOpen} />
      {VIEW_ITEMS.map((item) => (
        <button
          key={item.view}
          type="button"
          className={item.view === view ? 'nav-item active' : 'nav-item'}
          aria-current={item.view === view ? 'page' : undefined}
          data-testid={`nav-${item.view}`}
          onClick={() => setView(item.view)}
        >
          {item.label}
        </button>
      ))}
    </nav>
  );
}
