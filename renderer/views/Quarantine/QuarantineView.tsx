import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatTime } from '../../components/format';
import { LoadErrors, useLoadFailed } from '../../components/LoadErrors';
import { latestEntryInto } from '../../components/history';
import { selectActions, selectQuarantineView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { QuarantineDetail } from './QuarantineDetail';
import { InertLabel } from '../../components/InertLabel';

export function QuarantineView() {
  const { evidence, details, selected } = useWorkbench(useShallow(selectQuarantineView));
  const { selectQuarantined, ensureRevisionDetails, selectRevision, setView } = useWorkbench(useShallow(selectActions));
  const queue = useMemo(() => evidence.filter((r) => r.state === 'QUARANTINED'), [evidence]);
  const failed = useLoadFailed();
  // The chosen revision while it is still quarantined; after a release or revoke, the next one.
  const current = queue.find((r) => r.revisionId === selected) ?? queue[0] ?? null;
  const detail = current ? details[current.revisionId] : undefined;
  const [outcome, setOutcome] = useState<{ message: string; revisionId: string } | null>(null);

  // The queue shows each item's reason, which lives in its history: fetch every queued revision.
  const queuedIds = useMemo(() => queue.map((r) => r.revisionId), [queue]);
  useEffect(() => {
    void ensureRevisionDetails(queuedIds);
  }, [queuedIds, ensureRevisionDetails]);

  return (
    <div className="queue-layout">
      <section className="panel queue-pane">
        <h1>Quarantine</h1>
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
        <ul className="plain queue" data-testid="quarantine-queue">
          {queue.map((r) => {
            const entry = details[r.revisionId] ? latestEntryInto(details[r.revisionId]!.transitions, 'QUARANTINED') : null;
            return (
              <li key={r.revisionId}>
                <button
                  type="button"
                  className={`list-button${current?.revisionId === r.revisionId ? ' active' : ''}`}
                  aria-current={current?.revisionId === r.revisionId ? 'true' : undefined}
                  data-testid={`quarantine-entry-${r.revisionId}`}
                  onClick={() => selectQuarantined(r.revisionId)}
                >
                  <code className="small">{r.revisionId}</code> <span className="muted small">{r.kind}</span>
                  <span className="queue-text"><InertLabel text={r.title} /></span>
                  {entry && <span className="queue-reason small">{entry.reason}</span>}
                  <span className="muted small">since {formatTime(entry?.at ?? null)}</span>
                </button>
              </li>
            );
          })}
        </ul>
        {queue.length === 0 && !failed && (
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
