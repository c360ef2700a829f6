import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { StatusBadge } from '../../components/Badges';
import { ClaimDetailPanel } from '../../components/ClaimDetailPanel';
import { LoadErrors } from '../../components/LoadErrors';
import { RevisionDetailPanel } from '../../components/RevisionDetailPanel';
import { selectActions, selectGraphActions, selectGraphSidePanel, selectReviewActions } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { InertLabel } from '../../components/InertLabel';

/** Details of the selected graph node; with nothing selected, the claims as a keyboard-reachable list. */
export function GraphSidePanel() {
  const { graph, claimDetails, details, selection } = useWorkbench(useShallow(selectGraphSidePanel));
  const { selectGraphNode, ensureRevisionDetails, ensureClaimDetails } = useWorkbench(useShallow(selectActions));
  const { focusGraph } = useWorkbench(useShallow(selectGraphActions));
  const claims = graph?.claims ?? [];
  const { openReview } = useWorkbench(useShallow(selectReviewActions));
  const selectRevision = (id: string) => selectGraphNode({ kind: 'revision', id });

  useEffect(() => {
    if (selection?.kind === 'revision') void ensureRevisionDetails([selection.id]);
    if (selection?.kind === 'claim') void ensureClaimDetails([selection.id]);
  }, [selection, ensureRevisionDetails, ensureClaimDetails]);

  let body: React.JSX.Element;
  if (selection?.kind === 'claim' && claimDetails[selection.id]) {
    const claimId = selection.id;
    body = (
      <ClaimDetailPanel
        claim={claimDetails[claimId]!}
        evidence={graph?.revisions ?? []}
        onSelectRevision={selectRevision}
        review={graph?.reviews.find((r) => r.claimId === claimId)}
        onOpenReview={() => openReview(claimId)}
        testId="graph-claim-detail"
      />
    );
  } else if (selection?.kind === 'revision' && details[selection.id]) {
    const detail = details[selection.id]!;
    body = (
      <>
        <div className="row wrap small pivots" data-testid="graph-pivots">
          <span className="muted">Pivot to evidence sharing its</span>
          <button type="button" className="secondary small" data-testid="graph-pivot-source" onClick={() => void focusGraph({ kind: 'source', id: detail.revisionId })}>
            source ({detail.context.sourceRef})
          </button>
          {detail.context.independenceGroup !== null && (
            <button type="button" className="secondary small" data-testid="graph-pivot-group" onClick={() => void focusGraph({ kind: 'group', id: detail.revisionId })}>
              independence group ({detail.context.independenceGroup})
            </button>
          )}
        </div>
        <RevisionDetailPanel detail={detail} onSelectRevision={selectRevision} testId="graph-revision-detail" />
      </>
    );
  } else if (selection) {
    body = <p className="muted">Loading {selection.id}…</p>;
  } else {
    body = (
      <>
        <h2>Claims in the graph</h2>
        <p className="muted small">
          Select a claim or an evidence revision in the graph, or pick a claim here.
          {graph && graph.claimsNotShown > 0 && ` ${graph.claimsNotShown} more claim(s) of the case are not drawn: search, or double-click a node to move the graph.`}
        </p>
        <ul className="plain claim-list">
          {claims.map((c) => (
            <li key={c.claimId}>
              <button type="button" className="list-button" data-testid={`graph-pick-claim-${c.claimId}`} onClick={() => selectGraphNode({ kind: 'claim', id: c.claimId })}>
                <StatusBadge status={c.status} /> <span><InertLabel text={c.statement} /></span>
              </button>
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <section className="panel detail-pane" data-testid="graph-side" tabIndex={-1} aria-label="Selected graph node">
      <LoadErrors />
      {selection && (
        <div className="row spread">
          <button type="button" className="link small back" data-testid="graph-clear-selection" onClick={() => selectGraphNode(null)}>
            ← claims in the graph
          </button>
          <button type="button" className="secondary small" data-testid="graph-focus-selection" onClick={() => void focusGraph(selection)}>
            Focus the graph here
          </button>
        </div>
      )}
      {body}
    </section>
  );
}
