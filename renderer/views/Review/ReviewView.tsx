import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { useShallow } from 'zustand/react/shallow';
import { REVIEW_FILTER_IDS } from '../../../shared/ipc/channels/review';
import { call } from '../../bridge';
import { DecisionStateBadge, ProjectionBadge, QuorumTierBadge, StatusBadge } from '../../components/Badges';
import { LoadErrors } from '../../components/LoadErrors';
import { usePaged } from '../../components/usePaged';
import { selectReviewActions, selectReviewError, selectSelectedReviewClaim } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { ClaimReviewDetail } from './ClaimReviewDetail';
import { REVIEW_FILTERS } from './reviewQueue';
import { useRememberedFilter } from '../../components/useRememberedFilter';
import { useVirtualRows } from '../../components/useVirtualRows';
import './review.css';
import { InertLabel } from '../../components/InertLabel';

const RememberedReviewFilter = z.enum(REVIEW_FILTER_IDS);
/** Every entry is this tall (three lines, each cut to the width), so the queue is drawn a screenful at a time. */
// Room for a wrapped third line (what is owed, the quorum tier and an unsettled projection).
const ENTRY_PX = 124;
const PAGE = 100;
const AWAITING_LABEL = { approve: 'yours to approve', vote: 'your vote is owed' } as const;

/**
 * The review queue: every claim you may see with where its review stands, most urgent first. The
 * store orders and filters it (review:page) and the view reads it a page at a time as it scrolls,
 * afresh on opening and after every recorded change (another reviewer may have decided or voted).
 */
export function ReviewView() {
  const reviewError = useWorkbench(selectReviewError);
  const selected = useWorkbench(selectSelectedReviewClaim);
  const { selectReviewClaim, refreshReviews } = useWorkbench(useShallow(selectReviewActions));
  const [filter, setFilter] = useRememberedFilter('review', RememberedReviewFilter, 'all');
  const queue = usePaged(filter, (after) => call('review:page', { filter, limit: PAGE, ...(after === undefined ? { counts: true } : { after }) }));
  const shown = queue.items;
  const error = queue.error ?? reviewError;
  const pane = useRef<HTMLElement>(null);
  const list = useRef<HTMLUListElement>(null);
  // The claim chosen (from this queue, the graph, a dispute or a blocker), else the most urgent one shown.
  const current = selected ?? shown[0]?.claimId ?? null;
  const w = useVirtualRows(pane, shown.length, ENTRY_PX, 8, list);
  const { hasMore, loadMore } = queue;
  // Reads the next page as the list nears the end of what was read.
  useEffect(() => {
    if (hasMore && w.end >= shown.length - 10) loadMore();
  }, [hasMore, loadMore, w.end, shown.length]);
  const retry = () => {
    if (queue.error !== null) {
      if (shown.length === 0) queue.reload();
      else queue.loadMore();
    }
    if (reviewError !== null) void refreshReviews();
  };

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
            {queue.error !== null ? 'The review queue could not be read' : 'A review on screen could not be read again'}: {error}{' '}
            <button type="button" className="secondary small" data-testid="review-retry" onClick={retry}>
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
              {label} <span className="count">{queue.counts?.[f] ?? '…'}</span>
            </button>
          ))}
        </div>
        <ul className="plain queue fixed-entries" data-testid="review-queue" ref={list}>
          {w.padTop > 0 && <li aria-hidden="true" style={{ height: w.padTop }} />}
          {shown.slice(w.start, w.end).map((item, i) => {
            return (
              <li key={item.claimId} style={{ height: ENTRY_PX }} aria-posinset={w.start + i + 1} aria-setsize={queue.counts?.[filter] ?? shown.length}>
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
                  <span className="entry-line entry-meta small muted">
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
        {shown.length === 0 && !error && !queue.loading && queue.counts !== null && (
          <p className="muted" data-testid="review-empty">
            {queue.counts.all === 0 ? 'No claim you may see.' : 'No claim matches this filter.'}
          </p>
        )}
      </section>
      <div className="queue-detail">{current ? <ClaimReviewDetail key={current} claimId={current} /> : null}</div>
    </div>
  );
}
