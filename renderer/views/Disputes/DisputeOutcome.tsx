import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ClaimDetail } from '../../../shared/ipc/channels/claims';
import { DecisionStateBadge } from '../../components/Badges';
import { DecisionList } from '../../components/DecisionList';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProposeDecisionForm } from '../../components/ProposeDecisionForm';
import type { ActionError } from '../../state/types';
import { selectActions, selectReviewActions, selectReviews } from '../../state/selectors';
import { useWorkbench } from '../../state/store';

/**
 * A reasoned outcome for a disputed claim: a decision proposal (another reviewer approves it, four
 * eyes), or recording right away that the claim cannot be decided. Every outcome needs its reason.
 */
export function DisputeOutcome({ claim }: { claim: ClaimDetail }) {
  const review = useWorkbench(selectReviews)[claim.claimId];
  const { loadReview, openReview } = useWorkbench(useShallow(selectReviewActions));
  const { markUnresolved } = useWorkbench(useShallow(selectActions));
  const [unresolvedReason, setUnresolvedReason] = useState('');
  const [error, setError] = useState<ActionError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void loadReview(claim.claimId);
  }, [claim.claimId, loadReview]);

  const recordUnresolved = async () => {
    setBusy(true);
    const refused = await markUnresolved(claim.claimId, unresolvedReason);
    setBusy(false);
    setError(refused);
    if (!refused) setUnresolvedReason('');
  };

  return (
    <section className="panel outcome" data-testid="dispute-outcome">
      <div className="row spread">
        <h2>Outcome</h2>
        <button type="button" className="link small" data-testid="dispute-open-review" onClick={() => openReview(claim.claimId)}>
          Open in Review →
        </button>
      </div>
      {review && (
        <p className="row wrap small" data-testid="dispute-decision-state">
          <DecisionStateBadge state={review.decisionState} />
          <span>{review.decisionMessage}</span>
        </p>
      )}
      {review && <DecisionList decisions={review.decisions} claimAuthor={review.author} testId="dispute-decisions" />}
      <div className="outcome-forms">
        {review?.openProposal ? (
          <p className="muted small" data-testid="dispute-propose-blocked">
            {review.openProposal.decisionId} is open: approve, reject or withdraw it before proposing another decision.
          </p>
        ) : (
          <ProposeDecisionForm claimId={claim.claimId} testId="dispute-propose" />
        )}
        <form
          className="transition-form"
          data-testid="dispute-unresolved"
          onSubmit={(e) => {
            e.preventDefault();
            void recordUnresolved();
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
          {error && <ErrorNotice error={error} testId="dispute-unresolved-error" />}
        </form>
      </div>
    </section>
  );
}
