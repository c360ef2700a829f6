import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { StateBadge, StatusBadge } from '../../components/Badges';
import { InertLabel } from '../../components/InertLabel';
import { LoadErrors, useLoadFailed } from '../../components/LoadErrors';
import { useVirtualRows } from '../../components/useVirtualRows';
import { selectActions, selectDisputesView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { ClaimDispute } from './ClaimDispute';
import { currentEntry, disputeQueue } from './disputeQueue';
import { RevisionDispute } from './RevisionDispute';
import { useDisputePages } from './useDisputePages';

/** Every entry is this tall (the statement or title cut to its lines): the queue is drawn a screenful at a time. */
const ENTRY_PX = 76;

export function DisputesView() {
  const { claimDetails, details, selected } = useWorkbench(useShallow(selectDisputesView));
  const { selectDispute, ensureRevisionDetails, ensureClaimDetails, selectRevision, setView } = useWorkbench(useShallow(selectActions));
  const [text, setText] = useState('');
  const pages = useDisputePages(text.trim());
  const { claims, revisions } = pages;
  const queue = useMemo(() => disputeQueue(claims.items, revisions.items, !claims.hasMore), [claims.items, claims.hasMore, revisions.items]);
  const failed = useLoadFailed() || pages.error !== null;
  const entry = currentEntry(queue, selected);
  const openClaimId = entry?.kind === 'claim' ? entry.claim.claimId : null;
  const pane = useRef<HTMLElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const w = useVirtualRows(pane, queue.length, ENTRY_PX, 8, list);
  const { hasMore, loadMore } = pages;
  // Reads the next page as the list nears the end of what was read.
  useEffect(() => {
    if (hasMore && w.end >= queue.length - 10) loadMore();
  }, [hasMore, loadMore, w.end, queue.length]);
  useEffect(() => {
    if (openClaimId) void ensureClaimDetails([openClaimId]);
  }, [openClaimId, ensureClaimDetails]);
  const openInEvidence = (revisionId: string) => {
    selectRevision(revisionId);
    setView('evidence');
  };

  return (
    <div className="queue-layout">
      <section className="panel queue-pane" ref={pane}>
        <div className="row spread">
          <h1>Disputes</h1>
          {pages.counts && (
            <span className="muted" data-testid="dispute-count">
              {pages.counts.claims.toLocaleString('en')} MIXED · {pages.counts.revisions.toLocaleString('en')} DISPUTED
            </span>
          )}
        </div>
        <p className="muted small">MIXED claims and DISPUTED revisions. Each needs a reasoned outcome, not a count.</p>
        <input
          type="search"
          className="grow"
          aria-label="Filter disputes by words of a claim or revision"
          placeholder="Filter: id, statement or title"
          data-testid="dispute-filter"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <LoadErrors />
        {pages.error !== null && (
          <div className="error-notice" role="alert" data-testid="dispute-load-error">
            The dispute queue could not be read: {pages.error}{' '}
            <button type="button" className="secondary small" data-testid="dispute-retry" onClick={pages.retry}>
              Retry
            </button>
          </div>
        )}
        <ul className="plain queue fixed-entries" data-testid="dispute-queue" ref={list}>
          {w.padTop > 0 && <li aria-hidden="true" style={{ height: w.padTop }} />}
          {queue.slice(w.start, w.end).map((e, i) => (
            <li key={e.key} style={{ height: ENTRY_PX }} aria-posinset={w.start + i + 1} aria-setsize={pages.counts ? pages.counts.claims + pages.counts.revisions : queue.length}>
              <button
                type="button"
                className={`list-button${entry?.key === e.key ? ' active' : ''}`}
                aria-current={entry?.key === e.key ? 'true' : undefined}
                data-testid={`dispute-entry-${e.key}`}
                onClick={() => selectDispute(e.key)}
              >
                {e.kind === 'claim' ? (
                  <>
                    <span className="entry-line">
                      <StatusBadge status={e.claim.status} /> <code className="small">{e.claim.claimId}</code>
                    </span>
                    <span className="queue-text"><InertLabel text={e.claim.statement} /></span>
                  </>
                ) : (
                  <>
                    <span className="entry-line">
                      <StateBadge state={e.revision.state} /> <code className="small">{e.revision.revisionId}</code>
                    </span>
                    <span className="queue-text"><InertLabel text={e.revision.title} /></span>
                  </>
                )}
              </button>
            </li>
          ))}
          {w.padBottom > 0 && <li aria-hidden="true" style={{ height: w.padBottom }} />}
        </ul>
        {pages.loading && queue.length === 0 && (
          <p className="muted small" role="status" data-testid="dispute-loading">
            Reading the disputes…
          </p>
        )}
        {queue.length === 0 && !failed && !pages.loading && !pages.hasMore && pages.counts !== null && (
          <p className="muted" data-testid="dispute-empty">
            {text.trim() ? 'No dispute matches the filter.' : 'Nothing in dispute: no claim is MIXED and no revision is DISPUTED.'}
          </p>
        )}
      </section>
      <div className="queue-detail">
        {entry?.kind === 'claim' &&
          (claimDetails[entry.claim.claimId] ? (
            <ClaimDispute claim={claimDetails[entry.claim.claimId]!} details={details} ensureDetails={ensureRevisionDetails} onOpen={openInEvidence} />
          ) : (
            <p className="muted">Loading {entry.claim.claimId}…</p>
          ))}
        {entry?.kind === 'revision' && <RevisionDispute revision={entry.revision} details={details} ensureDetails={ensureRevisionDetails} onOpen={openInEvidence} />}
      </div>
    </div>
  );
}
