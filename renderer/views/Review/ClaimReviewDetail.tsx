import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DecisionStateBadge, ProjectionBadge, StatusBadge } from '../../components/Badges';
import { DecisionList } from '../../components/DecisionList';
import { Fingerprint } from '../../components/Fingerprint';
import { ProposeDecisionForm } from '../../components/ProposeDecisionForm';
import { selectActions, selectClaimDetails, selectRefreshAll, selectReviewActions, selectReviews } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { QuorumPanel } from './QuorumPanel';
import { InertLabel } from '../../components/InertLabel';

/**
 * One claim under review: where its review stands and why, the basis reviewers look at, its
 * decisions with their fingerprints and actions, a proposal form, and the quorum when it needs one.
 */
export function ClaimReviewDetail({ claimId }: { claimId: string }) {
  const review = useWorkbench(selectReviews)[claimId];
  const claim = useWorkbench(selectClaimDetails)[claimId];
  const { loadReview } = useWorkbench(useShallow(selectReviewActions));
  const { selectRevision, selectGraphNode, setView } = useWorkbench(useShallow(selectActions));
  const refreshAll = useWorkbench(selectRefreshAll);

  useEffect(() => {
    void loadReview(claimId);
  }, [claimId, loadReview]);

  if (!review) return <p className="muted">Loading the review of {claimId}…</p>;
  const openRevision = (revisionId: string) => {
    selectRevision(revisionId);
    setView('evidence');
  };
  const openGraph = () => {
    selectGraphNode({ kind: 'claim', id: claimId });
    setView('graph');
  };
  const policy = claim?.policy;

  return (
    <div className="stack" data-testid={`review-claim-${claimId}`}>
      <section className="panel">
        <div className="row spread">
          <div className="row wrap">
            <span className="muted small">status</span>
            {claim && <StatusBadge status={claim.status} testId="review-claim-status" />}
            <span className="muted small">review</span>
            <DecisionStateBadge state={review.decisionState} testId="review-decision-state" />
            <code>{claimId}</code>
            <span className="muted small">
              generation {review.generation} · written by {review.author}
              {policy && ` · needs ≥ ${policy.minIndependentSources} independent`}
              {policy && policy.quorumSize !== null && ` · quorum of ${policy.quorumSize}`}
            </span>
          </div>
          <div className="row nowrap">
            <button type="button" className="secondary small" data-testid="review-reload" title="Reload the claim, its review, the queue and the chain" onClick={() => void refreshAll()}>
              Reload
            </button>
            <button type="button" className="secondary small" data-testid="review-open-graph" onClick={openGraph}>
              Show in graph
            </button>
          </div>
        </div>
        <h1 className="claim-title" data-testid="review-statement">
          <InertLabel text={review.statement} />
        </h1>
        <p className={`decision-banner banner-${review.decisionState}`} data-testid="review-decision-message">
          {review.decisionMessage}
        </p>
        {claim?.projection && (claim.projection !== 'ELIGIBLE' || claim.pendingRevalidation) && (
          <div className="warn-note small" data-testid="review-projection">
            <ProjectionBadge projection={claim.projection} />{' '}
            {claim.pendingRevalidation ? 'Evidence of this claim was taken out of normal flows (revoked, superseded, quarantined or disputed); it is pending revalidation.' : 'Its evidence no longer fully carries it.'}
            {claim.projectionReasons && claim.projectionReasons.length > 0 && (
              <ul className="reasons">
                {claim.projectionReasons.map((r, i) => (
                  <li key={i}>{r}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <dl className="facts compact">
          <div className="fact span2">
            <dt>Review basis</dt>
            <dd className="row wrap">
              <Fingerprint value={review.basis} testId="review-basis" />
              <span className="muted small">generation {review.generation} and the exact revisions below; a quorum vote carries it</span>
            </dd>
          </div>
          <div className="fact span2">
            <dt>Evidence the decision would rest on</dt>
            <dd className="refs" data-testid="review-evidence">
              {review.evidenceRefs.map((r) => (
                <button key={r} type="button" className="link mono" data-testid={`review-evidence-${r}`} onClick={() => openRevision(r)}>
                  {r}
                </button>
              ))}
              {review.evidenceRefs.length === 0 && review.hiddenEvidenceRefs === 0 && <span className="muted">no bound evidence</span>}
              {review.hiddenEvidenceRefs > 0 && <span className="muted small">+ {review.hiddenEvidenceRefs} outside your clearance</span>}
            </dd>
          </div>
        </dl>
      </section>
      <section className="panel">
        <h2>Decisions</h2>
        <DecisionList decisions={review.decisions} claimAuthor={review.author} testId="review-decisions" />
        <h3>Propose a decision</h3>
        {review.openProposal ? (
          <p className="muted small" data-testid="review-propose-blocked">
            {review.openProposal.decisionId} ({review.openProposal.verdict}) is open: approve, reject or withdraw it before proposing another.
          </p>
        ) : (
          <ProposeDecisionForm claimId={claimId} testId="review-propose" />
        )}
      </section>
      {review.quorum && <QuorumPanel review={review} quorum={review.quorum} />}
    </div>
  );
}
