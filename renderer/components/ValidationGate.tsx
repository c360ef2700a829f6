import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ResponseOf } from '../../shared/ipc/contract';
import type { ActionError } from '../state/types';
import { selectActions } from '../state/selectors';
import { useWorkbench } from '../state/store';
import { ErrorNotice } from './ErrorNotice';
import { ValidationChecks } from './ValidationChecks';

export type DryRun = ResponseOf<'evidence:validate'> | ActionError;

/**
 * The validation checklist in front of a move to VALIDATED: a dry run the analyst can look at
 * first, and the reviewer override (with its own reason) when checks fail. The service runs the
 * checklist again on the real move; this is only a preview.
 */
export function ValidationGate({
  revisionId,
  testId,
  dryRun,
  onDryRun,
  offerOverride,
  overrideReason,
  onOverrideReason,
}: {
  revisionId: string;
  testId: string;
  dryRun: DryRun | null;
  onDryRun: (run: DryRun) => void;
  offerOverride: boolean;
  overrideReason: string;
  onOverrideReason: (reason: string) => void;
}) {
  const { checkValidation } = useWorkbench(useShallow(selectActions));
  const [busy, setBusy] = useState(false);
  return (
    <div className="validation-gate">
      <div className="row">
        <button
          type="button"
          className="secondary small"
          data-testid={`${testId}-run`}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            onDryRun(await checkValidation(revisionId));
            setBusy(false);
          }}
        >
          Run validation checklist (writes nothing)
        </button>
        {dryRun && 'passed' in dryRun && (
          <span className={dryRun.passed ? 'ok small' : 'bad small'} data-testid={`${testId}-result`}>
            {dryRun.passed ? 'All checks pass' : 'Some checks fail'}
          </span>
        )}
      </div>
      {dryRun && 'passed' in dryRun && <ValidationChecks checks={dryRun.checks} testId={`${testId}-checks`} />}
      {dryRun && 'code' in dryRun && <ErrorNotice error={dryRun} testId={`${testId}-error`} />}
      {offerOverride && (
        <label className="field wide">
          <span>
            Reviewer override of failed checks <span className="muted">(reason; recorded and receipted)</span>
          </span>
          <textarea data-testid={`${testId}-override`} rows={2} value={overrideReason} onChange={(e) => onOverrideReason(e.target.value)} />
        </label>
      )}
    </div>
  );
}
