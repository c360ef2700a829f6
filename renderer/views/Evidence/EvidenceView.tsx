import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LifecycleState } from '../../../shared/domain/enums';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import { LoadErrors } from '../../components/LoadErrors';
import { RevisionDetailPanel } from '../../components/RevisionDetailPanel';
import { rowWindow } from '../../components/useVirtualRows';
import { selectActions, selectEvidenceView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { BulkValidate } from './BulkValidate';
import { EvidenceFilters } from './EvidenceFilters';
import { EVIDENCE_ROW_PX, EvidenceTable } from './EvidenceTable';

export function EvidenceView() {
  const { queue, filter, selectedId, details, gone: goneRevisions } = useWorkbench(useShallow(selectEvidenceView));
  const { selectRevision, setEvidenceFilter, ensureRevisionDetails, loadMoreEvidence, loadEvidenceQueue } = useWorkbench(useShallow(selectActions));
  const scroller = useRef<HTMLDivElement>(null);
  const [picked, setPicked] = useState<ReadonlyMap<string, LifecycleState>>(new Map());
  const pick = useCallback((r: RevisionSummary, on: boolean) => {
    setPicked((p) => {
      const next = new Map(p);
      if (on) next.set(r.revisionId, r.state);
      else next.delete(r.revisionId);
      return next;
    });
  }, []);
  // A selection belongs to the rows it was made on: another filter or order starts afresh, at the top.
  useEffect(() => {
    setPicked(new Map());
    scroller.current?.scrollTo?.({ top: 0 });
  }, [filter]);

  const detail = selectedId !== null ? details[selectedId] : undefined;
  // A selection can outlive its visibility (another acting reviewer, another case): then it has no detail.
  useEffect(() => {
    if (selectedId) void ensureRevisionDetails([selectedId]);
  }, [selectedId, ensureRevisionDetails]);
  const gone = selectedId !== null && goneRevisions.has(selectedId);

  // Reads the next page as the list nears the end of the rows read so far.
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const w = rowWindow(queue.items.length, EVIDENCE_ROW_PX, el.scrollTop, el.clientHeight, 0);
    if (queue.nextCursor !== null && w.end >= queue.items.length - 20) void loadMoreEvidence();
  }, [queue.items.length, queue.nextCursor, loadMoreEvidence]);
  useEffect(onScroll, [onScroll]);

  const total = queue.counts?.total ?? queue.items.length;
  return (
    <div className="split">
      <section className="panel list-pane">
        <div className="row spread">
          <h1>Evidence</h1>
          <span className="muted" data-testid="evidence-count">
            {queue.error !== null && queue.items.length === 0
              ? 'could not be read'
              : `${total.toLocaleString('en')} matching${queue.items.length < total ? ` · ${queue.items.length.toLocaleString('en')} loaded, more as you scroll` : ''}`}
          </span>
        </div>
        <EvidenceFilters counts={queue.counts} filter={filter} onChange={setEvidenceFilter} />
        <BulkValidate picked={picked} onDone={() => setPicked(new Map())} />
        <LoadErrors />
        {queue.error !== null && (
          <div className="error-notice row" role="alert" data-testid="evidence-queue-error">
            <span>The evidence list could not be read: {queue.error}</span>
            <button type="button" data-testid="evidence-queue-retry" onClick={() => void (queue.items.length === 0 ? loadEvidenceQueue() : loadMoreEvidence())}>
              Retry
            </button>
          </div>
        )}
        <div className="scroll" ref={scroller} onScroll={onScroll} data-testid="evidence-scroll">
          <EvidenceTable rows={queue.items} total={total} scroller={scroller} selectedId={selectedId} onSelect={selectRevision} picked={picked} onPick={pick} />
          {queue.loading && (
            <p className="muted small" role="status" data-testid="evidence-loading">
              Reading…
            </p>
          )}
        </div>
      </section>
      <section className="panel detail-pane">
        {detail ? (
          <RevisionDetailPanel detail={detail} onSelectRevision={selectRevision} testId="evidence-detail" />
        ) : (
          <p className="muted" data-testid="evidence-detail-empty">
            {!selectedId ? 'Select a revision to inspect its context, content and history.' : gone ? `${selectedId} is not visible to the acting reviewer.` : `Loading ${selectedId}…`}
          </p>
        )}
      </section>
    </div>
  );
}
