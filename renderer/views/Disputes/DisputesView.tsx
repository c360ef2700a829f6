import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { StateBadge, StatusBadge } from '../../components/Badges';
import { LoadErrors, useLoadFailed } from '../../components/LoadErrors';
import { selectActions, selectDisputesView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { ClaimDispute } from './ClaimDispute';
import { currentEntry, disputeQueue } from './disputeQueue';
import { RevisionDispute } from './RevisionDispute';
import { InertLabel } from '../../components/InertLabel';

export function DisputesView() {
  const { claims, claimDetails, evidence, details, selected } = useWorkbench(useShallow(selectDisputesView));
  const { selectDispute, ensureRevisionDetails, ensureClaimDetails, selectRevision, setView } = useWorkbench(useShallow(selectActions));
  const queue = useMemo(() => disputeQueue(claims, evidence), [claims, evidence]);
  const failed = useLoadFailed();
  const entry = currentEntry(queue, selected);
  const openClaimId = entry?.kind === 'claim' ? entry.claim.claimId : null;
  useEffect(() => {
    if (openClaimId) void ensureClaimDetails([openClaimId]);
  }, [openClaimId, ensureClaimDetails]);
  const openInEvidence = (revisionId: string) => {
    selectRevision(revisionId);
    setView('evidence');
  };

  return (
    <div className="queue-layout">
      <section className="panel queue-pane">
        <h1>Disputes</h1>
        <p className="muted small">MIXED claims and DISPUTED revisions. Each needs a reasoned outcome, not a count.</p>
        <LoadErrors />
        <ul className="plain queue" data-testid="dispute-queue">
          {queue.map((e) => (
            <li key={e.key}>
              <button
                type="button"
                className={`list-button${entry?.key === e.key ? ' active' : ''}`}
                aria-current={entry?.key === e.key ? 'true' : undefined}
                data-testid={`dispute-entry-${e.key}`}
                onClick={() => selectDispute(e.key)}
              >
                {e.kind === 'claim' ? (
                  <>
                    <StatusBadge status={e.claim.status} /> <code className="small">{e.claim.claimId}</code>
                    <span className="queue-text"><InertLabel text={e.claim.statement} /></span>
                  </>
                ) : (
                  <>
                    <StateBadge state={e.revision.state} /> <code className="small">{e.revision.revisionId}</code>
                    <span className="queue-text"><InertLabel text={e.revision.title} /></span>
                  </>
                )}
              </button>
            </li>
          ))}
        </ul>
        {queue.length === 0 && !failed && (
          <p className="muted" data-testid="dispute-empty">
            Nothing in dispute: no claim is MIXED and no revision is DISPUTED.
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
        {entry?.kind === 'revision' && (
          <RevisionDispute
            revision={entry.revision}
            details={details}
            claims={claims}
           
            ensureDetails={ensureRevisionDetails}
            onOpen={openInEvidence}
          />
        )}
      </div>
    </div>
  );
}
