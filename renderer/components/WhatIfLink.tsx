import { useWorkbench } from '../state/store';

/** Opens the What-if view pretending this revision revoked: what would change, before anyone revokes it. */
export function WhatIfLink({ revisionId, testId }: { revisionId: string; testId: string }) {
  const openWhatIf = useWorkbench((s) => s.openWhatIf);
  return (
    <p className="small">
      <button type="button" className="secondary small" data-testid={testId} onClick={() => openWhatIf([revisionId])}>
        What if this were revoked?
      </button>{' '}
      <span className="muted">Shows the claims and decisions it would change; nothing is revoked.</span>
    </p>
  );
}
