import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LifecycleState } from '../../shared/domain/enums';
import { allowedNext } from '../../shared/domain/lifecycle';
import type { ActionError } from '../state/types';
import { selectActions } from '../state/selectors';
import { useWorkbench } from '../state/store';
import { ConfirmStep } from './ConfirmStep';
import { ErrorNotice } from './ErrorNotice';
import { ValidationGate, type DryRun } from './ValidationGate';

interface Props {
  revisionId: string;
  state: LifecycleState;
  testId: string;
  /** 'buttons' shows one button per move (quarantine review); 'select' a picker (general use). */
  presentation?: 'select' | 'buttons';
  /** Button captions for the 'buttons' presentation, e.g. "Release" for QUARANTINED → CANDIDATE. */
  labels?: Partial<Record<LifecycleState, string>>;
  /** Called after a recorded move, for views where the revision then leaves the screen. */
  onDone?: (message: string, to: LifecycleState) => void;
}

/** What a revoke does, said before it is done (DESIGN §3.10): it is terminal. */
const revokeConsequence = (revisionId: string) => (
  <>
    Revoking <code>{revisionId}</code> is terminal: it will never be usable again. Every claim and decision resting on it, and evidence derived from it, is
    fenced at once (pending revalidation), and each approved decision that loses its support opens a remediation.
  </>
);

/**
 * A lifecycle move with its reason. Only the moves the lifecycle table allows are offered; the
 * service still decides (role, checklist, concurrent change, empty reason) and its refusal is shown
 * verbatim, with the zod paths.
 */
export function TransitionForm({ revisionId, state, testId, presentation = 'select', labels = {}, onDone }: Props) {
  const { transitionRevision } = useWorkbench(useShallow(selectActions));
  const moves = allowedNext(state);
  const [picked, setPicked] = useState<LifecycleState | ''>(moves[0] ?? '');
  // After a move the revision has a new state; a pick that is no longer allowed falls back.
  const to = picked && moves.includes(picked) ? picked : (moves[0] ?? '');
  const [reason, setReason] = useState('');
  const [supportingRef, setSupportingRef] = useState('');
  const [overrideReason, setOverrideReason] = useState('');
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (target: LifecycleState | '') => {
    if (!target) return;
    setBusy(true);
    setDone(null);
    // The reason is sent as typed, even empty: the service's own validation is the rule, and its
    // message (with the field path) is what the analyst should see.
    const refused = await transitionRevision({
      revisionId,
      to: target,
      reason,
      ...(supportingRef.trim() ? { supportingRef: supportingRef.trim() } : {}),
      ...(target === 'VALIDATED' && overrideReason.trim() ? { overrideReason } : {}),
    });
    setBusy(false);
    setError(refused);
    if (!refused) {
      const message = `${revisionId}: ${state} → ${target} recorded.`;
      setDone(message);
      setReason('');
      setSupportingRef('');
      setOverrideReason('');
      setDryRun(null);
      onDone?.(message, target);
    }
  };

  const errorNote = error && <ErrorNotice error={error} testId={`${testId}-error`} />;
  const doneNote = done && (
    <p className="ok" role="status" data-testid={`${testId}-done`}>
      {done}
    </p>
  );

  if (moves.length === 0) {
    return (
      <div>
        {errorNote}
        {doneNote}
        <p className="muted" data-testid={`${testId}-terminal`}>
          {state} is terminal: no further lifecycle moves exist for this revision.
        </p>
      </div>
    );
  }

  // A refusal that names failed checklist items is the cue to offer the reviewer override.
  const checklistRefused = error?.issues.some((i) => i.path[0] === 'validation') ?? false;

  return (
    <form
      className="transition-form"
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(to);
      }}
    >
      {presentation === 'select' && (
        <label className="field inline">
          Move to
          <select data-testid={`${testId}-to`} value={to} onChange={(e) => setPicked(e.target.value as LifecycleState)}>
            {moves.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field wide">
        <span>
          Reason <span className="required">(required, recorded in the audit chain)</span>
        </span>
        <textarea
          data-testid={`${testId}-reason`}
          aria-required="true"
          rows={2}
          value={reason}
          placeholder="Why this move is justified"
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <label className="field wide">
        <span>
          Supporting reference <span className="muted">(optional: ticket, revision id)</span>
        </span>
        <input data-testid={`${testId}-ref`} value={supportingRef} onChange={(e) => setSupportingRef(e.target.value)} />
      </label>
      {presentation === 'select' && to === 'VALIDATED' && (
        <ValidationGate
          revisionId={revisionId}
          testId={`${testId}-checklist`}
          dryRun={dryRun}
          onDryRun={setDryRun}
          offerOverride={checklistRefused || (dryRun !== null && 'passed' in dryRun && !dryRun.passed)}
          overrideReason={overrideReason}
          onOverrideReason={setOverrideReason}
        />
      )}
      <div className="row">
        {presentation === 'select' ? (
          to === 'REVOKED' ? (
            <ConfirmStep label="Record transition" confirmLabel="Revoke" consequence={revokeConsequence(revisionId)} testId={`${testId}-submit`} disabled={busy} onConfirm={() => void submit(to)} />
          ) : (
            <button type="submit" data-testid={`${testId}-submit`} disabled={busy}>
              Record transition
            </button>
          )
        ) : (
          moves.map((m) =>
            m === 'REVOKED' ? (
              <ConfirmStep
                key={m}
                label={labels[m] ?? `Move to ${m}`}
                confirmLabel="Revoke"
                className="danger"
                consequence={revokeConsequence(revisionId)}
                testId={`${testId}-${m.toLowerCase()}`}
                disabled={busy}
                onConfirm={() => void submit(m)}
              />
            ) : (
              <button key={m} type="button" data-testid={`${testId}-${m.toLowerCase()}`} disabled={busy} onClick={() => void submit(m)}>
                {labels[m] ?? `Move to ${m}`}
              </button>
            ),
          )
        )}
      </div>
      {errorNote}
      {doneNote}
    </form>
  );
}
