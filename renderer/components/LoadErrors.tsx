import { useShallow } from 'zustand/react/shallow';
import { selectLoadErrors } from '../state/selectors';
import { useWorkbench } from '../state/store';

/** Loading failures of evidence or claims: a view must say why it is empty, not spin forever. */
export function LoadErrors() {
  const { evidenceError, claimsError } = useWorkbench(useShallow(selectLoadErrors));
  if (!evidenceError && !claimsError) return null;
  return (
    <div className="error-notice" role="alert" data-testid="load-error">
      {evidenceError && <div>{evidenceError}</div>}
      {claimsError && <div>{claimsError}</div>}
    </div>
  );
}
