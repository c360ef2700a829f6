import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { LOCKED_EVENT } from './bridge';
import { CommandPalette } from './components/CommandPalette';
import { FileDrop } from './components/FileDrop';
import { ImportDialog } from './components/ImportDialog';
import { StatusBar } from './components/StatusBar';
import { NavBar } from './components/NavBar';
import { useWorkbench } from './state/store';
import { selectLockState, selectRefreshAll, selectView } from './state/selectors';
import { UnlockPanel } from './views/Cases/UnlockPanel';
import { CasesView } from './views/Cases/CasesView';
import { AuditView } from './views/Audit/AuditView';
import { IntakeView } from './views/Intake/IntakeView';
import { EvidenceView } from './views/Evidence/EvidenceView';
import { GraphView } from './views/Graph/GraphView';
import { TimelineView } from './views/Timeline/TimelineView';
import { DashboardView } from './views/Dashboard/DashboardView';
import { WhatIfView } from './views/WhatIf/WhatIfView';
import { DisputesView } from './views/Disputes/DisputesView';
import { QuarantineView } from './views/Quarantine/QuarantineView';
import { RemediationsView } from './views/Remediations/RemediationsView';
import { ReviewView } from './views/Review/ReviewView';
import type { View } from './state/types';
import { useRouteSync } from './state/useRouteSync';

const VIEW_COMPONENTS: Record<View, () => React.JSX.Element> = {
  cases: CasesView,
  dashboard: DashboardView,
  intake: IntakeView,
  graph: GraphView,
  timeline: TimelineView,
  evidence: EvidenceView,
  review: ReviewView,
  disputes: DisputesView,
  quarantine: QuarantineView,
  remediations: RemediationsView,
  whatif: WhatIfView,
  audit: AuditView,
};

export function App() {
  const view = useWorkbench(selectView);
  const refreshAll = useWorkbench(selectRefreshAll);
  const { locked, idleLockMinutes, loadCase, lock } = useWorkbench(useShallow(selectLockState));
  useEffect(() => {
    void refreshAll();
  }, [refreshAll]);
  useEffect(() => {
    const onLocked = () => void loadCase();
    window.addEventListener(LOCKED_EVENT, onLocked);
    return () => window.removeEventListener(LOCKED_EVENT, onLocked);
  }, [loadCase]);
  useIdleLock(locked ? null : idleLockMinutes, lock);
  useMenuCommands();
  const ready = useWorkbench((s) => s.caseInfo !== null && s.caseInfo.actor !== null);
  useRouteSync(ready);
  // Going to another view moves keyboard focus into it, as a page change would; a window just
  // opened (nothing focused yet) leaves the tab order starting at the skip link.
  const main = useRef<HTMLElement>(null);
  const shown = useRef(view);
  useEffect(() => {
    const somewhere = document.activeElement !== null && document.activeElement !== document.body;
    if (shown.current !== view && somewhere) main.current?.focus({ preventScroll: true });
    shown.current = view;
  }, [view]);
  const Current = VIEW_COMPONENTS[view];
  return (
    <div className="app">
      <button type="button" className="skip-link" data-testid="skip-link" onClick={() => main.current?.focus()}>
        Skip to the view
      </button>
      <NavBar caseOpen={ready} />
      <FileDrop enabled={ready} />
      <ImportDialog />
      <CommandPalette enabled={ready} />
      <main className="main" ref={main} tabIndex={-1} aria-label={locked ? 'Unlock' : `${view} view`} data-testid={locked ? 'view-locked' : `view-${view}`}>
        {locked ? (
          <div className="stack">
            <UnlockPanel />
            <CasesView />
          </div>
        ) : (
          <Current />
        )}
      </main>
      <StatusBar />
    </div>
  );
}

/** The native File menu (Electron): Import… brings the chosen path, Export… opens the bundle panel. */
function useMenuCommands(): void {
  const { startImport, setView } = useWorkbench(useShallow((s) => ({ startImport: s.startImport, setView: s.setView })));
  useEffect(
    () =>
      window.workbench?.onMenuCommand((command) => {
        if (command.kind === 'import') void startImport(command.path);
        else setView('cases');
      }),
    [startImport, setView],
  );
}

/**
 * Locks the window after the case's idle time without a key press or pointer use here. The main
 * process enforces the same limit on calls; this catches a window left open with views that poll.
 */
function useIdleLock(minutes: number | null, lock: () => Promise<void>): void {
  useEffect(() => {
    if (minutes === null) return;
    let last = Date.now();
    const touch = () => {
      last = Date.now();
    };
    const events = ['pointerdown', 'keydown', 'wheel'] as const;
    for (const e of events) window.addEventListener(e, touch, { passive: true });
    const timer = setInterval(() => {
      if (Date.now() - last > minutes * 60_000) void lock();
    }, 15_000);
    return () => {
      clearInterval(timer);
      for (const e of events) window.removeEventListener(e, touch);
    };
  }, [minutes, lock]);
}
