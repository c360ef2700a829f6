import { useEffect, useMemo, useRef } from 'react';
import { z } from 'zod';
import { useShallow } from 'zustand/react/shallow';
import { DecisionStateBadge, ProjectionBadge, QuorumTierBadge, StatusBadge } from '../../components/Badges';
import { LoadErrors } from '../../components/LoadErrors';
import { selectReviewActions, selectReviewError, selectReviewQueue, selectSelectedReviewClaim } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { ClaimReviewDetail } from './ClaimReviewDetail';
import { currentReviewClaim, filterCounts, REVIEW_FILTER_IDS, REVIEW_FILTERS, reviewQueueView } from './reviewQueue';
import { useRememberedFilter } from '../../components/useRememberedFilter';
import { useVirtualRows } from '../../components/useVirtualRows';
import './review.css';
import { InertLabel } from '../../components/InertLabel';

const RememberedReviewFilter = z.enum(REVIEW_FILTER_IDS);
/** Every entry is this tall (three lines, each cut to the width), so the queue is drawn a screenful at a time. */
const ENTRY_PX = 96;
const AWAITING_LABEL = { approve: 'yours to approve', vote: 'your vote is owed' } as const;

/** The review queue: every claim you may see with where its review stands, most urgent first. */
export function ReviewView() {
  const queue = useWorkbench(selectReviewQueue);
  const error = useWorkbench(selectReviewError);
  const selected = useWorkbench(selectSelectedReviewClaim);
  const { selectReviewClaim, loadReviews } = useWorkbench(useShallow(selectReviewActions));
  const [filter, setFilter] = useRememberedFilter('review', RememberedReviewFilter, 'all');
  const pane = useRef<HTMLElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const shown = useMemo(() => reviewQueueView(queue, filter), [queue, filter]);
  const counts = useMemo(() => filterCounts(queue), [queue]);
  const current = currentReviewClaim(shown, queue, selected);
  const w = useVirtualRows(pane, shown.length, ENTRY_PX, 8, list);
  // Another reviewer may have decided or voted since the last refresh: the queue is read afresh on opening.
  useEffect(() => {
    void loadReviews();
  }, [loadReviews]);

  return (
    <div className="queue-layout">
      <section className="panel queue-pane" ref={pane}>
        <h1>Review</h1>
        <p className="muted small">
          Each claim needs a decision proposed by one reviewer and approved by another (four eyes), on the fingerprint they read. High-risk
          claims also need a quorum of independent votes.
        </p>
        <LoadErrors />
        {error && (
          <div className="error-notice" role="alert" data-testid="review-load-error">
            The review queue could not be read: {error}{' '}
            <button type="button" className="secondary small" data-testid="review-retry" onClick={() => void loadReviews()}>
              Retry
            </button>
          </div>
        )}
        <div className="row wrap" role="group" aria-label="Filter the review queue">
          {REVIEW_FILTERS.map(({ filter: f, label }) => (
            <button
              key={f}
              type="button"
              className={`chip${filter === f ? ' active' : ''}`}
              aria-pressed={filter === f}
              data-testid={`review-filter-${f}`}
              onClick={() => setFilter(f)}
            >
              {label} <span className="count">{counts[f]}</span>
            </button>
          ))}
        </div>
        <ul className="plain queue fixed-entries" data-testid="review-queue" ref={list}>
          {w.padTop > 0 && <li aria-hidden="true" style={{ height: w.padTop }} />}
          {shown.slice(w.start, w.end).map((item, i) => {
            return (
              <li key={item.claimId} style={{ height: ENTRY_PX }} aria-posinset={w.start + i + 1} aria-setsize={shown.length}>
                <button
                  type="button"
                  className={`list-button${current === item.claimId ? ' active' : ''}`}
                  aria-current={current === item.claimId ? 'true' : undefined}
                  data-testid={`review-entry-${item.claimId}`}
                  data-decision-state={item.decisionState}
                  onClick={() => selectReviewClaim(item.claimId)}
                >
                  <span className="entry-line">
                    <DecisionStateBadge state={item.decisionState} testId={`review-entry-state-${item.claimId}`} />
                    {item.status && <StatusBadge status={item.status} />}
                    <code className="small">{item.claimId}</code>
                  </span>
                  <span className="queue-text"><InertLabel text={item.statement} /></span>
                  <span className="entry-line small muted">
                    {item.awaitingMe && (
                      <span className="tag awaiting" data-testid={`review-entry-awaiting-${item.claimId}`}>
                        {AWAITING_LABEL[item.awaitingMe]}
                      </span>
                    )}
                    {item.verdict && <span>in force: {item.verdict}</span>}
                    {item.quorumTier && (
                      <span>
                        quorum <QuorumTierBadge tier={item.quorumTier} />
                      </span>
                    )}
                    {item.unsettled && <ProjectionBadge projection={item.unsettled} />}
                  </span>
                </button>
              </li>
            );
          })}
          {w.padBottom > 0 && <li aria-hidden="true" style={{ height: w.padBottom }} />}
        </ul>
        {shown.length === 0 && !error && (
          <p className="muted" data-testid="review-empty">
            {queue.length === 0 ? 'No claim you may see.' : 'No claim matches this filter.'}
          </p>
        )}
      </section>
      <div className="queue-detail">{current ? <ClaimReviewDetail key={current} claimId={current} /> : null}</div>
    </div>
  );
}
