import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { sameFocus } from './graphSlice';
import { parseRoute, routeOf, type Route } from './route';
import { useWorkbench } from './store';
import type { WorkbenchState } from './types';

const routeOfState = (s: WorkbenchState): Route => ({
  view: s.view,
  ...(s.selectedRevisionId ? { revisionId: s.selectedRevisionId } : {}),
  ...(s.selectedReviewClaim ? { claimId: s.selectedReviewClaim } : {}),
  focus: s.graphTrail[s.graphTrail.length - 1]!,
});

/**
 * Keeps the window's place and the location's hash route one and the same (route.ts): a link or a
 * reload opens the place it names once the case is open, Back and Forward move between places,
 * and every new place the analyst goes to is a new history entry.
 */
export function useRouteSync(ready: boolean): void {
  const hash = useWorkbench((s) => routeOf(routeOfState(s)));
  const actions = useWorkbench(
    useShallow((s) => ({ setView: s.setView, selectRevision: s.selectRevision, selectReviewClaim: s.selectReviewClaim, focusGraph: s.focusGraph, graphBack: s.graphBack })),
  );
  const started = useRef(false);

  // Declared before the effect that applies the link: on the first render with the case open, the
  // window has not yet gone where the link says, so its own place must not overwrite the link.
  useEffect(() => {
    if (!ready || hash === window.location.hash) return;
    if (!started.current) {
      started.current = true;
      // Opened with no link (or one this window did not write): name the place it shows.
      if (!parseRoute(window.location.hash)) window.history.replaceState(null, '', hash);
      return;
    }
    window.history.pushState(null, '', hash);
  }, [ready, hash]);

  useEffect(() => {
    if (!ready) return;
    const apply = () => {
      const route = parseRoute(window.location.hash);
      if (!route) return;
      actions.setView(route.view);
      if (route.revisionId) actions.selectRevision(route.revisionId);
      if (route.claimId) actions.selectReviewClaim(route.claimId);
      if (route.focus) {
        // A focus already on the trail is a step back along it; another one is a new step.
        const trail = useWorkbench.getState().graphTrail;
        const at = trail.findIndex((f) => sameFocus(f, route.focus!));
        if (at >= 0 && at < trail.length - 1) void actions.graphBack(at);
        else if (at < 0) void actions.focusGraph(route.focus);
      }
    };
    apply();
    window.addEventListener('popstate', apply);
    return () => window.removeEventListener('popstate', apply);
  }, [ready, actions]);
}
