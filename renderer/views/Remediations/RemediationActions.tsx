import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RemediationView } from '../../../shared/ipc/channels/remediation';
import { ConfirmStep } from '../../components/ConfirmStep';
import { ErrorNotice } from '../../components/ErrorNotice';
import { selectRemediationActions } from '../../state/selectors';
import type { ActionError } from '../../state/types';
import { useWorkbench } from '../../state/store';
import { defaultSuccessors, pickedSuccessors, uncoveredRequired } from './successors';

type Mode = 'retain' | 'rereview' | 'withdraw';

const MODES: { mode: Mode; label: string; explain: string }[] = [
  {
    mode: 'retain',
    label: 'Retain on successor revision(s)',
    explain: 'The decision stands on later revisions of the same lineages: new bindings for a new claim generation, the claim itself unchanged.',
  },
  { mode: 'rereview', label: 'Request re-review', explain: 'The claim goes back to review in a new generation without the revoked evidence; no decision is in force.' },
  { mode: 'withdraw', label: 'Withdraw the decision', explain: 'The decision no longer stands; it stays readable as history and the claim needs a new decision.' },
];

/**
 * The three owner actions (DESIGN §3.6). The form offers what the service will accept and warns
 * early (four eyes, uncovered REQUIRED bindings), but it never decides: whatever the service
 * refuses is shown as the service worded it.
 */
export function RemediationActions({ remediation }: { remediation: RemediationView }) {
  const { retainCurrentRevision, requestRereview, withdrawRemediated } = useWorkbench(useShallow(selectRemediationActions));
  const [mode, setMode] = useState<Mode>('retain');
  const [picks, setPicks] = useState<Record<number, string>>(() => defaultSuccessors(remediation.affected));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const uncovered = uncoveredRequired(remediation.affected, picks);

  const submit = async () => {
    setBusy(true);
    const base = { remediationId: remediation.remediationId, expectedProjectionVersion: remediation.projectionVersion, reason };
    const refused =
      mode === 'retain'
        ? await retainCurrentRevision({ ...base, successors: pickedSuccessors(remediation.affected, picks) })
        : mode === 'rereview'
          ? await requestRereview(base)
          : await withdrawRemediated(base);
    setBusy(false);
    setError(refused);
  };

  return (
    <form
      className="remediation-actions"
      data-testid="remediation-actions"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {!remediation.canResolve && remediation.cannotResolveBecause && (
        <p className="warn-note" data-testid="remediation-cannot-resolve">
          You may not resolve this: {remediation.cannotResolveBecause}.
        </p>
      )}
      <fieldset>
        <legend>Outcome</legend>
        <div className="mode-choice">
          {MODES.map((m) => (
            <label key={m.mode} className="check">
              <input type="radio" name="remediation-mode" value={m.mode} checked={mode === m.mode} onChange={() => setMode(m.mode)} data-testid={`remediation-mode-${m.mode}`} />{' '}
              {m.label}
            </label>
          ))}
        </div>
        <p className="muted small">{MODES.find((m) => m.mode === mode)!.explain}</p>
      </fieldset>
      {mode === 'retain' && (
        <fieldset data-testid="remediation-successors">
          <legend>Successor for each affected binding</legend>
          {remediation.affected.map((a) => (
            <div key={a.bindingId} className="successor-row">
              <span>
                <code className="small">{a.revisionId}</code> <span className="tag">{a.role}</span>
              </span>
              <select
                data-testid={`remediation-successor-${a.revisionId}`}
                aria-label={`Successor for ${a.revisionId}`}
                value={picks[a.bindingId] ?? ''}
                onChange={(e) => setPicks((p) => ({ ...p, [a.bindingId]: e.target.value }))}
              >
                <option value="">{a.role === 'REQUIRED' ? 'choose a successor…' : 'no successor: leave it out of the new generation'}</option>
                {a.successors.map((s) => (
                  // Unusable successors are listed with why, not hidden: the reviewer should see what exists.
                  <option key={s.revisionId} value={s.revisionId} disabled={!s.usable}>
                    {s.revisionId} ({s.state}){s.usable ? '' : ` — not usable: ${s.reasons.join('; ')}`}
                  </option>
                ))}
              </select>
            </div>
          ))}
          {remediation.affected.some((a) => a.successors.length === 0) && (
            <p className="muted small">A binding without later revisions in its lineage cannot be retained; request a re-review instead.</p>
          )}
          {uncovered.length > 0 && (
            <p className="warn-note small" data-testid="remediation-uncovered">
              Every REQUIRED binding needs a successor: {uncovered.join(', ')}.
            </p>
          )}
        </fieldset>
      )}
      <label className="field wide">
        <span>
          Reason <span className="required">(required, recorded in the audit chain)</span>
        </span>
        <textarea data-testid="remediation-reason" aria-required="true" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error && <ErrorNotice error={error} testId="remediation-error" />}
      <div className="row">
        {mode === 'withdraw' ? (
          <ConfirmStep
            label="Withdraw the decision"
            confirmLabel="Withdraw"
            testId="remediation-submit"
            disabled={busy}
            consequence={
              <>
                Withdrawing takes decision <code>{remediation.decision.decisionId}</code> out of force for good: claim <code>{remediation.claimId}</code> is undecided
                again and needs a new proposal and approval. The decision stays readable as history.
              </>
            }
            onConfirm={() => void submit()}
          />
        ) : (
          <button type="submit" data-testid="remediation-submit" disabled={busy}>
            {busy ? 'Recording…' : MODES.find((m) => m.mode === mode)!.label}
          </button>
        )}
        <span className="muted small">Sent with projection version {remediation.projectionVersion}; a newer recomputation refuses it.</span>
      </div>
    </form>
  );
}
