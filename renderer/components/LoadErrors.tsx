import { useShallow } from 'zustand/react/shallow';
import { useWorkbench } from '../state/store';

/** Loading failures of evidence or claims: a view must say why it is empty, not spin forever. */
export function LoadErrors() {
  const { evidenceError, claimsError } = useWorkbench(useShallow((s) => ({ evidenceError: s.evidenceError, claimsError: s.claimsError })));
  if (!evidenceError && !claimsError) return null;
  return (
    <div className="error-notice" role="alert" data-testid="load-error">
      {evidenceError && <div>{evidenceError}</div>}
      {claimsError && <div>{claimsError}</div>}
    </div>
  );
}
