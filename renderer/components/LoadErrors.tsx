import { useShallow } from 'zustand/react/shallow';
import { selectLoadErrors } from '../state/selectors';
import { useWorkbench } from '../state/store';

/**
 * Loading failures of evidence or claims, with Retry: a view must say why it is empty, not spin
 * forever, and never show "nothing here" for a list it could not read.
 */
export function LoadErrors() {
  const { evidenceError, claimsError, refreshAll } = useWorkbench(useShallow(selectLoadErrors));
  if (!evidenceError && !claimsError) return null;
  return (
    <div className="error-notice" role="alert" data-testid="load-error">
      {evidenceError && <div>Evidence could not be read: {evidenceError}</div>}
      {claimsError && <div>Claims could not be read: {claimsError}</div>}
      <button type="button" className="secondary small" data-testid="load-retry" onClick={() => void refreshAll()}>
        Retry
      </button>
    </div>
  );
}

/** Whether the lists a view is built from failed to load: its empty state would then be a lie. */
export const useLoadFailed = (): boolean => useWorkbench((s) => s.evidenceError !== null || s.claimsError !== null);
