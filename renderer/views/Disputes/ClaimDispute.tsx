import type { EvidenceDetail } from '../../../shared/ipc/channels/evidence';
import { useEffect, useMemo } from 'react';
import type { BindingView} from '../../../shared/domain/schemas';
import type { ClaimDetail } from '../../../shared/ipc/channels/claims';
import { RelationTag, StatusBadge } from '../../components/Badges';
import { ProvenanceCard } from './ProvenanceCard';
import { claimSides } from './disputeQueue';
import { DisputeOutcome } from './DisputeOutcome';
import { InertLabel } from '../../components/InertLabel';

interface Props {
  claim: ClaimDetail;
  details: Record<string, EvidenceDetail>;
  ensureDetails: (ids: readonly string[]) => Promise<void>;
  onOpen: (revisionId: string) => void;
}

/** A MIXED claim: the supporting and the refuting evidence side by side, each with its provenance. */
export function ClaimDispute({ claim, details, ensureDetails, onOpen }: Props) {
  const sides = useMemo(() => claimSides(claim.bindings), [claim.bindings]);
  useEffect(() => {
    void ensureDetails(claim.bindings.map((b) => b.revisionId));
  }, [claim.bindings, ensureDetails]);

  const column = (title: string, bindings: BindingView[], side: 'support' | 'refute', counts: { all: number; independent: number }) => (
    <section className={`side side-${side}`} data-testid={`dispute-side-${side}`}>
      <header className="side-head">
        <h2>{title}</h2>
        <span className="muted small" data-testid={`dispute-side-${side}-counts`}>
          counted: {counts.independent} independent of {counts.all} usable
        </span>
      </header>
      {bindings.length === 0 && <p className="muted">No binding on this side.</p>}
      {bindings.map((b) => {
        const d = details[b.revisionId];
        return d ? (
          <ProvenanceCard key={b.bindingId} detail={d} binding={b} onOpen={onOpen} testId={`dispute-card-${b.revisionId}`} />
        ) : (
          <p key={b.bindingId} className="muted">
            Loading {b.revisionId}…
          </p>
        );
      })}
    </section>
  );

  return (
    <div className="stack" data-testid={`dispute-claim-${claim.claimId}`}>
      <section className="panel">
        <div className="row wrap">
          <StatusBadge status={claim.status} testId="dispute-claim-status" />
          <code>{claim.claimId}</code>
          <span className="muted small">
            generation {claim.generation} · scope {claim.scope.join(', ') || 'any'}
          </span>
        </div>
        <h1 className="claim-title"><InertLabel text={claim.statement} /></h1>
        <ul className="reasons" data-testid="dispute-claim-reasons">
          {claim.reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
        <p className="muted small">
          Both sides are credible until a reviewer weighs them. Compare provenance, time, version and independence; the number of
          items on a side decides nothing.
        </p>
      </section>
      <div className="sides">
        {column('Supports the claim', sides.supporting, 'support', claim.support)}
        {column('Refutes the claim', sides.refuting, 'refute', claim.refute)}
      </div>
      <DisputeOutcome claim={claim} />
      {sides.other.length > 0 && (
        <section className="panel">
          <h2>Context and unclassified bindings</h2>
          <ul className="plain" data-testid="dispute-other">
            {sides.other.map((b) => (
              <li key={b.bindingId} className="row wrap">
                <button type="button" className="link mono" data-testid={`dispute-other-open-${b.revisionId}`} onClick={() => onOpen(b.revisionId)}>
                  {b.revisionId}
                </button>
                <RelationTag relation={b.relation} />
                <span className="muted small">{b.role}</span>
                <span>{details[b.revisionId]?.title}</span>
                {b.rationale && <span className="muted">: {b.rationale}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
