import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { VERDICTS, type Verdict } from '../../../shared/domain/enums';
import type { ClaimDetail } from '../../../shared/ipc/channels/claims';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatTime, shortHash } from '../../components/format';
import type { ActionError } from '../../state/slice';
import { selectActions, selectDecisions } from '../../state/selectors';
import { useWorkbench } from '../../state/store';

const VERDICT_HINT: Record<Verdict, string> = {
  SUPPORTED: 'the support holds; the refutation is explained',
  REFUTED: 'the refutation holds; the support is explained',
  UNRESOLVED: 'both sides stay credible; the claim cannot be decided',
  NEEDS_MORE_EVIDENCE: 'neither side settles it yet',
};

/**
 * A reasoned outcome for a disputed claim: a decision proposal (another reviewer approves it, four
 * eyes), or recording right away that the claim cannot be decided. Every outcome needs its reason.
 */
export function DisputeOutcome({ claim }: { claim: ClaimDetail }) {
  const decisions = useWorkbench(selectDecisions)[claim.claimId];
  const { loadDecisions, proposeDecision, markUnresolved } = useWorkbench(useShallow(selectActions));
  const [verdict, setVerdict] = useState<Verdict>('NEEDS_MORE_EVIDENCE');
  const [rationale, setRationale] = useState('');
  const [unresolvedReason, setUnresolvedReason] = useState('');
  const [error, setError] = useState<{ form: 'propose' | 'unresolved'; error: ActionError } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void loadDecisions(claim.claimId);
  }, [claim.claimId, loadDecisions]);

  const run = async (form: 'propose' | 'unresolved', action: () => Promise<ActionError | null>, reset: () => void) => {
    setBusy(true);
    const refused = await action();
    setBusy(false);
    setError(refused ? { form, error: refused } : null);
    if (!refused) reset();
  };

  return (
    <section className="panel outcome" data-testid="dispute-outcome">
      <h2>Outcome</h2>
      {decisions && decisions.length > 0 && (
        <ul className="plain decisions" data-testid="dispute-decisions">
          {decisions.map((d) => (
            <li key={d.decisionId} className="decision" data-testid={`dispute-decision-${d.decisionId}`}>
              <div className="row wrap">
                <span className="tag">{d.status}</span>
                <b>{d.verdict}</b>
                <span className="muted small">
                  proposed by {d.proposedBy} at {formatTime(d.proposedAt)}
                  {d.decidedBy && ` · ${d.status.toLowerCase()} by ${d.decidedBy}`}
                </span>
                <code className="small" title={d.fingerprint}>
                  {shortHash(d.fingerprint)}
                </code>
                {!d.current && <span className="warn-text small">stale: {d.changes.join('; ')}</span>}
              </div>
              <div className="history-reason">{d.rationale}</div>
            </li>
          ))}
        </ul>
      )}
      <div className="outcome-forms">
        <form
          className="transition-form"
          data-testid="dispute-propose"
          onSubmit={(e) => {
            e.preventDefault();
            void run('propose', () => proposeDecision({ claimId: claim.claimId, verdict, rationale }), () => setRationale(''));
          }}
        >
          <label className="field inline">
            Propose
            <select data-testid="dispute-propose-verdict" value={verdict} onChange={(e) => setVerdict(e.target.value as Verdict)}>
              {VERDICTS.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small">{VERDICT_HINT[verdict]}. Another reviewer approves it.</p>
          <textarea
            data-testid="dispute-propose-rationale"
            rows={2}
            aria-label="Rationale"
            placeholder="Rationale: which side holds and why (provenance, time, version, independence)"
            value={rationale}
            onChange={(e) => setRationale(e.target.value)}
          />
          <div className="row">
            <button type="submit" data-testid="dispute-propose-submit" disabled={busy}>
              Propose decision
            </button>
          </div>
          {error?.form === 'propose' && <ErrorNotice error={error.error} testId="dispute-propose-error" />}
        </form>
        <form
          className="transition-form"
          data-testid="dispute-unresolved"
          onSubmit={(e) => {
            e.preventDefault();
            void run('unresolved', () => markUnresolved(claim.claimId, unresolvedReason), () => setUnresolvedReason(''));
          }}
        >
          <b>Cannot be decided</b>
          <p className="muted small">Records UNRESOLVED on the claim now (reviewers only); it leaves the dispute queue.</p>
          <textarea
            data-testid="dispute-unresolved-reason"
            rows={2}
            aria-label="Reason"
            placeholder="Reason: what would be needed to decide it"
            value={unresolvedReason}
            onChange={(e) => setUnresolvedReason(e.target.value)}
          />
          <div className="row">
            <button type="submit" className="secondary" data-testid="dispute-unresolved-submit" disabled={busy}>
              Record UNRESOLVED
            </button>
          </div>
          {error?.form === 'unresolved' && <ErrorNotice error={error.error} testId="dispute-unresolved-error" />}
        </form>
      </div>
    </section>
  );
}
