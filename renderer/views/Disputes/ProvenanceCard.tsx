import type { EvidenceDetail } from '../../../shared/ipc/channels/evidence';
import type { BindingView } from '../../../shared/domain/schemas';
import { RelationTag, StateBadge, StrengthTag } from '../../components/Badges';
import { formatTime, orDash } from '../../components/format';
import { InertText } from '../../components/InertText';
import { TransitionForm } from '../../components/TransitionForm';
import { UsabilityNote } from '../../components/UsabilityNote';
import { InertLabel } from '../../components/InertLabel';

/**
 * One side's evidence with everything an analyst weighs a conflict by: provenance (source type, ref,
 * version), time, revision, independence group and trust tier, plus whether it is usable right now
 * and why not (as the service computed it: the revocation fence is only known there).
 */
export function ProvenanceCard({
  detail,
  binding,
  onOpen,
  testId,
  showMove = true,
}: {
  detail: EvidenceDetail;
  binding?: BindingView;
  onOpen: (revisionId: string) => void;
  testId: string;
  /** Off where the surrounding view already offers the move for this revision. */
  showMove?: boolean;
}) {
  const c = detail.context;
  return (
    <article className="prov-card" data-testid={testId}>
      <header className="row wrap">
        <code>{detail.revisionId}</code>
        <StateBadge state={detail.state} testId={`${testId}-state`} />
        {binding && <RelationTag relation={binding.relation} />}
        {binding && <span className="muted small">{binding.role}</span>}
      </header>
      <h3 className="prov-title"><InertLabel text={detail.title} /></h3>
      <UsabilityNote usability={detail.usability} testId={`${testId}-usable`} />
      <dl className="facts compact prov-facts">
        <div className="fact span2">
          <dt>Source</dt>
          <dd data-testid={`${testId}-source`}>
            {c.sourceType} · <span className="mono">{c.sourceRef}</span> · version {orDash(c.sourceVersion)}
          </dd>
        </div>
        <div className="fact">
          <dt>Observed</dt>
          <dd className="mono">{formatTime(c.observedAt)}</dd>
        </div>
        <div className="fact">
          <dt>Revision</dt>
          <dd>
            r{detail.revision}
            {detail.supersedes ? ` (supersedes ${detail.supersedes})` : ''}
          </dd>
        </div>
        <div className="fact">
          <dt>Independence group</dt>
          <dd data-testid={`${testId}-group`}>{c.independenceGroup ?? 'none recorded'}</dd>
        </div>
        <div className="fact">
          <dt>Trust tier</dt>
          <dd data-testid={`${testId}-trust`}>
            {c.trustTier}
            {c.confidence !== null && ` · confidence ${c.confidence.toFixed(2)}`}
          </dd>
        </div>
        <div className="fact">
          <dt>Kind</dt>
          <dd>
            {detail.kind} <StrengthTag kind={detail.kind} />
          </dd>
        </div>
        <div className="fact">
          <dt>Producer</dt>
          <dd>
            {c.producer} ({c.producerType})
          </dd>
        </div>
      </dl>
      {binding?.rationale && (
        <p className="rationale">
          <span className="muted small">Binding rationale: </span>
          {binding.rationale}
        </p>
      )}
      <InertText content={detail.content} testId={`${testId}-content`} />
      <div className="row">
        <button type="button" className="secondary small" data-testid={`${testId}-open`} onClick={() => onOpen(detail.revisionId)}>
          Open in Evidence
        </button>
      </div>
      {showMove && (
      <details className="inline-move">
        <summary data-testid={`${testId}-move-toggle`}>Lifecycle move for {detail.revisionId}</summary>
        <TransitionForm key={detail.revisionId} revisionId={detail.revisionId} state={detail.state} testId={`${testId}-transition`} />
      </details>
      )}
    </article>
  );
}
