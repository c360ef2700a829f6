import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatTime } from '../../components/format';
import { LoadErrors, useLoadFailed } from '../../components/LoadErrors';
import { usePagedEvidence } from '../../components/usePagedEvidence';
import { useVirtualRows } from '../../components/useVirtualRows';
import { selectActions, selectQuarantineView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { QuarantineDetail } from './QuarantineDetail';
import { InertLabel } from '../../components/InertLabel';

/** Every entry is this tall (title and reason cut to their lines), so the queue is drawn a screenful at a time. */
const ENTRY_PX = 118;

export function QuarantineView() {
  const { details, selected } = useWorkbench(useShallow(selectQuarantineView));
  const { selectQuarantined, ensureRevisionDetails, selectRevision, setView } = useWorkbench(useShallow(selectActions));
  const queue = usePagedEvidence('QUARANTINED');
  const failed = useLoadFailed() || queue.error !== null;
  // The chosen revision while it is still quarantined; after a release or revoke, the next one.
  const current = queue.items.find((r) => r.revisionId === selected) ?? queue.items[0] ?? null;
  const detail = current ? details[current.revisionId] : undefined;
  const [outcome, setOutcome] = useState<{ message: string; revisionId: string } | null>(null);
  const pane = useRef<HTMLElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const w = useVirtualRows(pane, queue.items.length, ENTRY_PX, 6, list);
  const { hasMore, loadMore } = queue;
  // Reads the next page as the list nears the end of what was read.
  useEffect(() => {
    if (hasMore && w.end >= queue.items.length - 10) loadMore();
  }, [hasMore, loadMore, w.end, queue.items.length]);

  // Each entry's reason comes with the page; only the one opened needs its detail.
  useEffect(() => {
    if (current) void ensureRevisionDetails([current.revisionId]);
  }, [current, ensureRevisionDetails]);

  return (
    <div className="queue-layout">
      <section className="panel queue-pane" ref={pane}>
        <div className="row spread">
          <h1>Quarantine</h1>
          {queue.counts && (
            <span className="muted" data-testid="quarantine-count">
              {queue.counts.total.toLocaleString('en')} quarantined
            </span>
          )}
        </div>
        <p className="muted small">Suspected poisoned, tampered or unknown-source evidence, hidden from normal flows until released or revoked.</p>
        <LoadErrors />
        {outcome && (
          <p className="ok small" role="status" data-testid="quarantine-outcome">
            {outcome.message}{' '}
            <button
              type="button"
              className="link"
              data-testid="quarantine-outcome-open"
              onClick={() => {
                selectRevision(outcome.revisionId);
                setView('evidence');
              }}
            >
              Open in Evidence
            </button>
          </p>
        )}
        {queue.error !== null && (
          <div className="error-notice" role="alert" data-testid="quarantine-load-error">
            The quarantine queue could not be read: {queue.error}{' '}
            <button type="button" className="secondary small" data-testid="quarantine-retry" onClick={() => (queue.items.length === 0 ? queue.reload() : queue.loadMore())}>
              Retry
            </button>
          </div>
        )}
        <ul className="plain queue fixed-entries" data-testid="quarantine-queue" ref={list}>
          {w.padTop > 0 && <li aria-hidden="true" style={{ height: w.padTop }} />}
          {queue.items.slice(w.start, w.end).map((r, i) => {
            const entry = r.entered;
            return (
              <li key={r.revisionId} style={{ height: ENTRY_PX }} aria-posinset={w.start + i + 1} aria-setsize={queue.counts?.total ?? queue.items.length}>
                <button
                  type="button"
                  className={`list-button${current?.revisionId === r.revisionId ? ' active' : ''}`}
                  aria-current={current?.revisionId === r.revisionId ? 'true' : undefined}
                  data-testid={`quarantine-entry-${r.revisionId}`}
                  onClick={() => selectQuarantined(r.revisionId)}
                >
                  <span className="entry-line">
                    <code className="small">{r.revisionId}</code> <span className="muted small">{r.kind}</span>
                  </span>
                  <span className="queue-text"><InertLabel text={r.title} /></span>
                  {entry && <span className="queue-reason small">{entry.reason}</span>}
                  <span className="muted small">since {formatTime(entry?.at ?? null)}</span>
                </button>
              </li>
            );
          })}
          {w.padBottom > 0 && <li aria-hidden="true" style={{ height: w.padBottom }} />}
        </ul>
        {queue.items.length === 0 && !failed && !queue.loading && queue.counts !== null && (
          <p className="muted" data-testid="quarantine-empty">
            Nothing is quarantined.
          </p>
        )}
      </section>
      <div className="queue-detail">
        {current && detail && (
          <section className="panel">
            <QuarantineDetail detail={detail} onDone={(message) => setOutcome({ message, revisionId: detail.revisionId })} />
          </section>
        )}
        {current && !detail && <p className="muted">Loading {current.revisionId}…</p>}
      </div>
    </div>
  );
}
