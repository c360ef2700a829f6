import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { BLOCKER_KINDS, type Blocker } from '../../../shared/ipc/channels/gate';
import { call } from '../../bridge';
import { messageOf } from '../../state/actionError';
import { ConfirmStep } from '../../components/ConfirmStep';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { ActionError } from '../../state/types';
import { CopyButton } from '../../components/Fingerprint';
import { formatTime } from '../../components/format';
import { selectActions, selectFinalizeOutcome, selectGate, selectGateActions, selectGateError, selectReviewActions } from '../../state/selectors';
import { useWorkbench } from '../../state/store';

const KIND_LABEL: Record<Blocker['kind'], string> = {
  undecided: 'undecided',
  'open-proposal': 'open proposal',
  'stale-fingerprint': 'stale fingerprint',
  quorum: 'quorum',
  dispute: 'dispute',
  revalidation: 'revalidation',
  remediation: 'remediation',
  chain: 'audit chain',
};

/** Where a blocker is dealt with: a claim's review, a revision in the Evidence view, the remediation queue. */
function BlockerTarget({ b, testId }: { b: Blocker; testId: string }) {
  const { openReview } = useWorkbench(useShallow(selectReviewActions));
  const { selectRevision, setView } = useWorkbench(useShallow(selectActions));
  const [kind, id] = [b.target.slice(0, b.target.indexOf(':')), b.target.slice(b.target.indexOf(':') + 1)];
  if (kind === 'claim') {
    return (
      <button type="button" className="link mono" data-testid={`${testId}-open-${id}`} onClick={() => openReview(id)}>
        {b.target}
      </button>
    );
  }
  if (kind === 'revision') {
    return (
      <button
        type="button"
        className="link mono"
        data-testid={`${testId}-open-${id}`}
        onClick={() => {
          selectRevision(id);
          setView('evidence');
        }}
      >
        {b.target}
      </button>
    );
  }
  return <>{b.target}</>;
}

/** Rows per read: the gate answers the first page, "Show more" reads the next (a case of thousands of claims has thousands of blockers). */
const BLOCKER_PAGE = 200;

type Gate = NonNullable<ReturnType<typeof selectGate>>;

function BlockerTable({ gate, testId }: { gate: Gate; testId: string }) {
  const { setView } = useWorkbench(useShallow(selectActions));
  // The gate's first page, then pages read on "Show more" (read again from the start when the gate is).
  const [blockers, setBlockers] = useState<readonly Blocker[]>(gate.blockers);
  const [moreError, setMoreError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setBlockers(gate.blockers);
    setMoreError(null);
  }, [gate]);
  const showMore = () => {
    setBusy(true);
    call('case:gate', { offset: blockers.length, limit: BLOCKER_PAGE })
      .then((next) => setBlockers((rows) => [...rows, ...next.blockers]))
      .catch((err: unknown) => setMoreError(messageOf(err)))
      .finally(() => setBusy(false));
  };
  return (
    <>
      {gate.total > BLOCKER_PAGE && (
        <p className="small" data-testid={`${testId}-counts`}>
          {BLOCKER_KINDS.filter((kind) => gate.byKind[kind] > 0)
            .map((kind) => `${KIND_LABEL[kind]}: ${gate.byKind[kind].toLocaleString('en')}`)
            .join(' · ')}
        </p>
      )}
      <table className="table dense" data-testid={testId}>
        <thead>
          <tr>
            <th>kind</th>
            <th>target</th>
            <th>what blocks FINAL</th>
          </tr>
        </thead>
        <tbody>
          {blockers.map((b, i) => (
            <tr key={i} data-testid={`${testId}-row`} data-kind={b.kind}>
              <td className="nowrap">
                <span className={`tag blocker-${b.kind}`}>{KIND_LABEL[b.kind]}</span>
              </td>
              <td className="mono nowrap">
                <BlockerTarget b={b} testId={testId} />
              </td>
              <td>
                {b.message}
                <div className="muted small">
                  check: {b.check}
                  {(b.kind === 'revalidation' || b.kind === 'remediation') && (
                    <>
                      {' · '}
                      <button type="button" className="link small" data-testid={`${testId}-remediations-${i}`} onClick={() => setView('remediations')}>
                        Remediations →
                      </button>
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {moreError && (
        <p className="error small" role="alert" data-testid={`${testId}-more-error`}>
          The next blockers could not be read: {moreError}
        </p>
      )}
      {blockers.length < gate.total && (
        <p className="small">
          Showing {blockers.length.toLocaleString('en')} of {gate.total.toLocaleString('en')} blockers.{' '}
          <button type="button" className="link small" data-testid={`${testId}-more`} disabled={busy} onClick={showMore}>
            Show {Math.min(BLOCKER_PAGE, gate.total - blockers.length).toLocaleString('en')} more
          </button>
        </p>
      )}
    </>
  );
}

/** Reopening a FINAL case: an admin, a reason, a confirmation naming what happens. */
function ReopenForm() {
  const { reopenCase } = useWorkbench(useShallow(selectGateActions));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<ActionError | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="lock-note" data-testid="gate-lock">
      <p className="small">
        <b>Locked.</b> Changes are refused while the case is FINAL. An admin can reopen it; the reason is receipted.
      </p>
      <label className="field">
        Reason to reopen
        <textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="gate-reopen-reason" />
      </label>
      <ConfirmStep
        label="Reopen case…"
        confirmLabel="Reopen as DRAFT"
        className="secondary"
        testId="gate-reopen"
        disabled={busy}
        consequence="Reopening makes the case a DRAFT again: changes are accepted, and it is FINAL again only after passing the completion gate and being finalized anew. The finalization stays in the audit chain."
        onConfirm={() => {
          setBusy(true);
          void reopenCase(reason).then((refused) => {
            setBusy(false);
            setError(refused);
            if (!refused) setReason('');
          });
        }}
      />
      {error && <ErrorNotice error={error} testId="gate-reopen-error" />}
    </div>
  );
}

/**
 * The completion gate (DESIGN §3.4): a case is FINAL only when every claim is decided on a current
 * fingerprint, nothing is disputed or pending, and the chain verifies. Finalizing is an admin's act;
 * for anyone else the service's refusal is shown as it is.
 */
export function FinalizePanel() {
  const gate = useWorkbench(selectGate);
  const gateError = useWorkbench(selectGateError);
  const outcome = useWorkbench(selectFinalizeOutcome);
  const { finalizeCase, loadGate } = useWorkbench(useShallow(selectGateActions));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void loadGate();
  }, [loadGate]);

  return (
    <section className="panel" data-testid="gate-panel">
      <div className="row spread">
        <h2>Completion gate</h2>
        {gate && (
          <span className={`badge ${gate.final ? 'gate-final' : 'gate-draft'}`} data-testid="gate-state">
            {gate.final ? 'FINAL' : 'DRAFT'}
          </span>
        )}
      </div>
      {gateError && (
        <p className="error" role="alert" data-testid="gate-error">
          {gateError}
        </p>
      )}
      {gate && (
        <>
          <p className="small" data-testid="gate-summary">
            {gate.final
              ? 'FINAL and locked: no change is accepted until an admin reopens the case with a reason.'
              : gate.ready
                ? 'Nothing blocks finalizing: every claim is decided on a current fingerprint and the chain verifies.'
                : `${gate.total.toLocaleString('en')} blocker${gate.total === 1 ? '' : 's'} keep this case a DRAFT.`}
          </p>
          {gate.lastFinalization && (
            <p className="muted small" data-testid="gate-last">
              Last finalized by {gate.lastFinalization.by} at {formatTime(gate.lastFinalization.at)} (receipt seq {gate.lastFinalization.seq}), certifying{' '}
              <code>{gate.lastFinalization.certifiedHead}</code>
              {!gate.final && '; it was reopened since, so it is a DRAFT again.'}
            </p>
          )}
          {gate.final && <ReopenForm />}
          {gate.total > 0 && <BlockerTable gate={gate} testId="gate-blockers" />}
        </>
      )}
      <div className="row finalize-row">
        <ConfirmStep
          label="Finalize case"
          confirmLabel="Finalize and lock"
          testId="gate-finalize"
          disabled={busy || gate?.final === true}
          consequence={
            <>
              Finalizing appends a receipt certifying the chain head <code>{gate?.head}</code> and each claim’s outcome, and <b>locks the case</b>: no evidence,
              claim, decision or reviewer change is accepted until an admin reopens it with a reason. A blocked case stays DRAFT and nothing is written.
            </>
          }
          onConfirm={() => {
            setBusy(true);
            void finalizeCase().finally(() => setBusy(false));
          }}
        />
        <span className="muted small">Admins only. Appends a receipt certifying the chain head and each claim’s outcome; a blocked case stays DRAFT.</span>
      </div>
      {outcome && 'error' in outcome && <ErrorNotice error={outcome.error} testId="gate-finalize-error" />}
      {outcome && 'result' in outcome && (
        <div className={`finalize-result ${outcome.result.final ? 'result-final' : 'result-draft'}`} data-testid="gate-result" data-final={String(outcome.result.final)}>
          {outcome.result.final ? (
            <>
              <b>FINAL.</b> The finalize receipt certifies head
              <div className="head-line">
                <code data-testid="gate-certified-head">{outcome.result.certifiedHead}</code>
                <CopyButton value={outcome.result.certifiedHead ?? ''} testId="gate-certified-head-copy" />
              </div>
              <span className="small">Chain head after finalizing: <code data-testid="gate-result-head">{outcome.result.head}</code></span>
            </>
          ) : (
            <>
              <b>DRAFT.</b> Not finalized: {outcome.result.blockers.length} blocker{outcome.result.blockers.length === 1 ? '' : 's'} (listed above). Nothing was written.
            </>
          )}
        </div>
      )}
    </section>
  );
}
