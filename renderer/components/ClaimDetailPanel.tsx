import type { RevisionSummary } from '../../shared/domain/schemas';
import type { ClaimDetail } from '../../shared/ipc/channels/claims';
import type { ClaimReviewStanding } from '../../shared/ipc/channels/review';
import { DecisionStateBadge, ProjectionBadge, QuorumTierBadge, RelationTag, StateBadge, StatusBadge } from './Badges';
import { UnbindButton } from './BindingActions';
import { InertLabel } from './InertLabel';
import { PointsOfFailure } from './PointsOfFailure';
import { Computations } from './Computations';

/**
 * One claim: statement, derived status with the service's reasons, policy, missing kinds and its
 * bindings to exact revisions. Status is derived from usable evidence; nothing here counts votes.
 */
export function ClaimDetailPanel({
  claim,
  evidence,
  onSelectRevision,
  review,
  onOpenReview,
  testId,
}: {
  claim: ClaimDetail;
  evidence: readonly RevisionSummary[];
  onSelectRevision: (revisionId: string) => void;
  /** Where the claim's review stands (graph:neighbourhood). */
  review?: ClaimReviewStanding;
  onOpenReview?: () => void;
  testId: string;
}) {
  const stateOf = new Map(evidence.map((r) => [r.revisionId, r]));
  return (
    <article className="detail" data-testid={testId}>
      <header className="detail-head">
        <div className="row wrap">
          <StatusBadge status={claim.status} testId={`${testId}-status`} />
          <code>{claim.claimId}</code>
          <span className="muted small">
            generation {claim.generation} · by {claim.author} · {claim.tenant} · {claim.classification}
          </span>
        </div>
        <h2 data-testid={`${testId}-statement`}><InertLabel text={claim.statement} /></h2>
      </header>
      {claim.projection && (
        <div className={claim.projection === 'ELIGIBLE' && !claim.pendingRevalidation ? 'note small' : 'warn-note small'} data-testid={`${testId}-projection`}>
          <span className="muted">Support projection</span> <ProjectionBadge projection={claim.projection} />{' '}
          {claim.pendingRevalidation
            ? 'Evidence it rests on was taken out of normal flows (revoked, superseded, quarantined or disputed): pending revalidation.'
            : claim.projectionReasons?.join('; ')}
        </div>
      )}
      {(review || onOpenReview) && (
        <div className="row wrap review-line" data-testid={`${testId}-review`}>
          <span className="muted small">Review</span>
          {review && <DecisionStateBadge state={review.decisionState} testId={`${testId}-decision-state`} />}
          {review?.verdict && <span className="small">in force: {review.verdict}</span>}
          {review?.quorumTier && (
            <span className="small">
              quorum <QuorumTierBadge tier={review.quorumTier} />
            </span>
          )}
          <span className="grow" />
          {onOpenReview && (
            <button type="button" className="secondary small" data-testid={`${testId}-open-review`} onClick={onOpenReview}>
              Open review →
            </button>
          )}
        </div>
      )}
      <div className="counts-row" data-testid={`${testId}-counts`}>
        <div className="count-box" title="FULL_SUPPORT: only this counts toward the policy">
          <span className="muted small">Full support |I_c| / |E_c|</span>
          <b data-testid={`${testId}-full`}>
            {claim.support.independent} / {claim.support.all}
          </b>
        </div>
        <div className="count-box" title="PARTIAL_SUPPORT: shown, never makes a claim SUPPORTED">
          <span className="muted small">Partial support independent / all</span>
          <b data-testid={`${testId}-partial`}>
            {claim.partialSupport.independent} / {claim.partialSupport.all}
          </b>
        </div>
        <div className="count-box">
          <span className="muted small">Refutation independent / all</span>
          <b>
            {claim.refute.independent} / {claim.refute.all}
          </b>
        </div>
        <div className="count-box">
          <span className="muted small">Policy</span>
          <span>
            ≥ {claim.policy.minIndependentSources} independent
            {claim.policy.requiredKinds.length > 0 && `, needs ${claim.policy.requiredKinds.join(', ')}`}
            {claim.policy.quorumSize !== null && `, quorum of ${claim.policy.quorumSize}`}
          </span>
        </div>
      </div>
      <h3>Why this status</h3>
      <ul className="reasons" data-testid={`${testId}-reasons`}>
        {claim.reasons.map((r, i) => (
          <li key={i}>{r}</li>
        ))}
        {claim.unresolvedReason && <li>Reviewer: {claim.unresolvedReason}</li>}
      </ul>
      <h3>Computations</h3>
      <Computations
        claimId={claim.claimId}
        version={`${claim.generation}:${claim.projection}:${claim.pendingRevalidation}:${claim.bindings.map((b) => `${b.revisionId}=${stateOf.get(b.revisionId)?.state}`).join()}`}
        revisionIds={claim.bindings.map((b) => b.revisionId)}
        testId={`${testId}-computations`}
      />
      <h3>Single points of failure</h3>
      <PointsOfFailure claimId={claim.claimId} version={`${claim.generation}:${claim.status}:${claim.bindings.length}`} testId={`${testId}-points`} />
      {claim.independence.some((g) => g.refs.length > 1) && (
        <>
          <h3>How independent sources were counted</h3>
          <ul className="reasons" data-testid={`${testId}-independence`}>
            {claim.independence
              .filter((g) => g.refs.length > 1)
              .map((g) => (
                <li key={g.refs.join('|')}>
                  <b>{g.refs.join(', ')}</b> count as one source ({g.source})
                  <ul className="muted small">
                    {g.why.map((w) => (
                      <li key={w}>{w}</li>
                    ))}
                  </ul>
                </li>
              ))}
          </ul>
        </>
      )}
      {claim.missingKinds.length > 0 && (
        <p className="warn-text" data-testid={`${testId}-missing`}>
          Missing required evidence kind: {claim.missingKinds.join(', ')}. This claim needs review and is never approved automatically.
        </p>
      )}
      {claim.scope.length > 0 && <p className="muted small">Scope: {claim.scope.join(', ')}</p>}
      <h3>Bindings (generation {claim.generation})</h3>
      <ul className="plain bindings" data-testid={`${testId}-bindings`}>
        {claim.bindings.map((b) => {
          const r = stateOf.get(b.revisionId);
          return (
            <li key={b.bindingId} className="binding">
              <div className="row wrap">
                <RelationTag relation={b.relation} />
                <span className="muted small">{b.role}</span>
                <button type="button" className="link mono" data-testid={`${testId}-open-${b.revisionId}`} onClick={() => onSelectRevision(b.revisionId)}>
                  {b.revisionId}
                </button>
                {r && <StateBadge state={r.state} />}
                {r && <span className="muted small">{r.kind}</span>}
              </div>
              {r && <div className="small"><InertLabel text={r.title} /></div>}
              {b.rationale && <div className="muted small">Rationale: {b.rationale}</div>}
              <UnbindButton claimId={claim.claimId} revisionId={b.revisionId} testId={`${testId}-unbind-${b.revisionId}`} />
            </li>
          );
        })}
      </ul>
    </article>
  );
}
