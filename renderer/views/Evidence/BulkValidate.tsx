import { useState } from 'react';
import type { LifecycleState } from '../../../shared/domain/enums';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useWorkbench } from '../../state/store';
import type { ActionError } from '../../state/types';

/** At most this many per request (the channel's limit); a larger selection is refused here, before any call. */
export const MAX_BULK = 200;

/**
 * Validates the selected candidates: each one runs its checklist and gets its own receipt, all in
 * one transaction. The first one refused (moved since it was listed, or a failed check: an
 * override is given one revision at a time, from its detail) refuses them all, named.
 */
export function BulkValidate({ picked, onDone }: { picked: ReadonlyMap<string, LifecycleState>; onDone: () => void }) {
  const validateEvidence = useWorkbench((s) => s.validateEvidence);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const n = picked.size;
  const tooMany = n > MAX_BULK;

  const run = async () => {
    setBusy(true);
    setError(null);
    const outcome = await validateEvidence([...picked].map(([revisionId, from]) => ({ revisionId, from })), reason);
    setBusy(false);
    if ('code' in outcome) {
      setError(outcome);
      return;
    }
    setDone(`Validated ${outcome.validated.length} revision(s), each with its checklist run and receipt.`);
    setAsking(false);
    setReason('');
    onDone();
  };

  return (
    <div className="bulk-bar" role="region" aria-label="Selected evidence" data-testid="evidence-bulk">
      <div className="row wrap">
        <span data-testid="evidence-bulk-count">{n === 0 ? 'Select candidates to validate several at once.' : `${n} candidate(s) selected`}</span>
        {n > 0 && !asking && (
          <>
            <button type="button" data-testid="evidence-bulk-validate" disabled={tooMany} onClick={() => { setAsking(true); setDone(null); }}>
              Validate selected…
            </button>
            <button type="button" className="ghost" data-testid="evidence-bulk-clear" onClick={onDone}>
              Clear selection
            </button>
          </>
        )}
        {tooMany && <span className="muted small">At most {MAX_BULK} at once; clear some.</span>}
        {done && (
          <span className="ok small" role="status" data-testid="evidence-bulk-done">
            {done}
          </span>
        )}
      </div>
      {asking && (
        <form
          className="row wrap"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <label className="field inline grow">
            Reason (goes into each receipt)
            <input data-testid="evidence-bulk-reason" value={reason} maxLength={4000} onChange={(e) => setReason(e.target.value)} required />
          </label>
          <button type="submit" data-testid="evidence-bulk-confirm" disabled={busy || reason.trim() === ''}>
            {busy ? 'Validating…' : `Validate ${n}`}
          </button>
          <button type="button" className="ghost" data-testid="evidence-bulk-cancel" onClick={() => { setAsking(false); setError(null); }}>
            Cancel
          </button>
        </form>
      )}
      {error && <ErrorNotice error={error} testId="evidence-bulk-error" />}
    </div>
  );
}
