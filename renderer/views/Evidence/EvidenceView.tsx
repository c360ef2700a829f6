import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { LoadErrors } from '../../components/LoadErrors';
import { RevisionDetailPanel } from '../../components/RevisionDetailPanel';
import { selectActions, selectEvidenceView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { EvidenceFilters } from './EvidenceFilters';
import { EvidenceTable } from './EvidenceTable';
import { filterEvidence } from './filter';

export function EvidenceView() {
  const { evidence, filter, selectedId, details } = useWorkbench(useShallow(selectEvidenceView));
  const { selectRevision, setEvidenceFilter, ensureRevisionDetails } = useWorkbench(useShallow(selectActions));
  const rows = useMemo(() => filterEvidence(evidence, filter), [evidence, filter]);
  // A list that could not be read is not "0 of 0".
  const failed = useWorkbench((s) => s.evidenceError !== null);
  // A selection can outlive its visibility (another acting reviewer, another case).
  const listed = selectedId !== null && evidence.some((r) => r.revisionId === selectedId);
  const detail = listed ? details[selectedId] : undefined;

  useEffect(() => {
    if (selectedId && listed) void ensureRevisionDetails([selectedId]);
  }, [selectedId, listed, ensureRevisionDetails]);

  return (
    <div className="split">
      <section className="panel list-pane">
        <div className="row spread">
          <h1>Evidence</h1>
          <span className="muted" data-testid="evidence-count">
            {failed ? 'could not be read' : `${rows.length} of ${evidence.length} visible revisions`}
          </span>
        </div>
        <EvidenceFilters evidence={evidence} filter={filter} onChange={setEvidenceFilter} />
        <LoadErrors />
        <div className="scroll">
          <EvidenceTable rows={rows} selectedId={selectedId} onSelect={selectRevision} />
        </div>
      </section>
      <section className="panel detail-pane">
        {detail ? (
          <RevisionDetailPanel detail={detail} evidence={evidence} onSelectRevision={selectRevision} testId="evidence-detail" />
        ) : (
          <p className="muted" data-testid="evidence-detail-empty">
            {!selectedId
              ? 'Select a revision to inspect its context, content and history.'
              : listed
                ? `Loading ${selectedId}…`
                : `${selectedId} is not visible to the acting reviewer.`}
          </p>
        )}
      </section>
    </div>
  );
}
