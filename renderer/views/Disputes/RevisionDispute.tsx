import type { EvidenceDetail } from '../../../shared/ipc/channels/evidence';
import { useEffect } from 'react';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import { RelationTag, StateBadge } from '../../components/Badges';
import { formatTime } from '../../components/format';
import { latestEntryInto, referencedRevision } from '../../components/history';
import { TransitionForm } from '../../components/TransitionForm';
import { ProvenanceCard } from './ProvenanceCard';
import { InertLabel } from '../../components/InertLabel';

interface Props {
  revision: RevisionSummary;
  details: Record<string, EvidenceDetail>;
  ensureDetails: (ids: readonly string[]) => Promise<void>;
  onOpen: (revisionId: string) => void;
}

/**
 * A DISPUTED revision beside the evidence it conflicts with (the dispute's supporting ref, when that
 * names a revision), with the claims that rest on it and the moves that settle it.
 */
export function RevisionDispute({ revision, details, ensureDetails, onOpen }: Props) {
  const detail = details[revision.revisionId];
  const entry = detail ? latestEntryInto(detail.transitions, 'DISPUTED') : null;
  const counterpartId = referencedRevision(entry?.supportingRef ?? null);
  const counterpart = counterpartId ? details[counterpartId] : undefined;

  useEffect(() => {
    void ensureDetails(counterpartId ? [revision.revisionId, counterpartId] : [revision.revisionId]);
  }, [revision.revisionId, counterpartId, ensureDetails]);

  if (!detail) return <p className="muted">Loading {revision.revisionId}…</p>;
  return (
    <div className="stack" data-testid={`dispute-revision-${revision.revisionId}`}>
      <section className="panel">
        <div className="row wrap">
          <StateBadge state={detail.state} />
          <code>{detail.revisionId}</code>
        </div>
        <h1 className="claim-title"><InertLabel text={detail.title} /></h1>
        {entry ? (
          <p data-testid="dispute-revision-reason">
            <span className="muted">Disputed by {entry.actor} at {formatTime(entry.at)}:</span> {entry.reason}
            {entry.supportingRef && (
              <>
                {' '}
                <span className="muted">(ref </span>
                <code>{entry.supportingRef}</code>
                <span className="muted">)</span>
              </>
            )}
          </p>
        ) : (
          <p className="muted">No recorded move into DISPUTED was found in this revision’s history.</p>
        )}
        {detail.boundTo.length > 0 && (
          <p className="small" data-testid="dispute-revision-bound">
            Bound to:{' '}
            {detail.boundTo.map((b) => (
              <span key={b.claimId} className="bound-claim">
                <code>{b.claimId}</code> <RelationTag relation={b.relation} />
              </span>
            ))}
          </p>
        )}
      </section>
      <div className="sides">
        <section className="side side-disputed" data-testid="dispute-side-disputed">
          <header className="side-head">
            <h2>Disputed revision</h2>
          </header>
          <ProvenanceCard detail={detail} onOpen={onOpen} showMove={false} testId={`dispute-card-${detail.revisionId}`} />
        </section>
        <section className="side side-counter" data-testid="dispute-side-counterpart">
          <header className="side-head">
            <h2>Conflicting evidence</h2>
          </header>
          {counterpart ? (
            <ProvenanceCard detail={counterpart} onOpen={onOpen} testId={`dispute-card-${counterpart.revisionId}`} />
          ) : (
            <p className="muted">
              {counterpartId ? `Loading ${counterpartId}…` : 'The dispute names no revision as its counterpart; see the reason above.'}
            </p>
          )}
        </section>
      </div>
      <section className="panel">
        <h2>Settle the dispute on this revision</h2>
        <p className="muted small">Back to VALIDATED if the conflict is explained, SUPERSEDED by a correction, REVOKED if it is unusable.</p>
        <TransitionForm key={detail.revisionId} revisionId={detail.revisionId} state={detail.state} testId="dispute-transition" />
      </section>
    </div>
  );
}
