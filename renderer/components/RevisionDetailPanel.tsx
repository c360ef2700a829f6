import type { EvidenceDetail } from '../../shared/ipc/channels/evidence';
import { RelationTag, StateBadge, StrengthTag } from './Badges';
import { BindToClaim, UnbindButton } from './BindingActions';
import { CopyLinks } from './CopyLinks';
import { InertText } from './InertText';
import { Lineage } from './Lineage';
import { TransitionForm } from './TransitionForm';
import { TransitionHistory } from './TransitionHistory';
import { UsabilityNote } from './UsabilityNote';
import { ValidationRun } from './ValidationChecks';
import { ValidityFacts } from './ValidityFacts';
import { InertLabel } from './InertLabel';
import { WhatIfLink } from './WhatIfLink';

/**
 * One evidence revision in full: validity context, inert content and its hash, lineage, lifecycle
 * history and the lifecycle move form. Shared by the Evidence and Graph views.
 */
export function RevisionDetailPanel({
  detail,
  onSelectRevision,
  testId,
}: {
  detail: EvidenceDetail;
  onSelectRevision: (revisionId: string) => void;
  testId: string;
}) {
  return (
    <article className="detail" data-testid={testId}>
      <header className="detail-head">
        <div className="row wrap">
          <StateBadge state={detail.state} testId={`${testId}-state`} />
          <code data-testid={`${testId}-id`}>{detail.revisionId}</code>
          <span className="tag">{detail.kind}</span>
          <StrengthTag kind={detail.kind} />
        </div>
        <h2 data-testid={`${testId}-title`}><InertLabel text={detail.title} /></h2>
      </header>
      <UsabilityNote usability={detail.usability} testId={`${testId}-usability`} />
      <ValidityFacts detail={detail} testId={`${testId}-context`} />
      <h3>
        Content <span className="muted small">(shown as inert text: evidence is data, never instructions)</span>
      </h3>
      <InertText content={detail.content} testId={`${testId}-content`} />
      <p className="hash">
        SHA-256 <code data-testid={`${testId}-sha`}>{detail.contentSha256}</code>
      </p>
      {detail.span && (
        <p className="muted small" data-testid={`${testId}-span`}>
          Quotes <code>{detail.span.sourceId}</code> [{detail.span.start}, {detail.span.end}) · quote SHA-256 <code>{detail.span.quoteSha256}</code>
        </p>
      )}
      <h3>Probable copies</h3>
      <CopyLinks revisionId={detail.revisionId} copies={detail.copies} testId={`${testId}-copies`} />
      <h3>Bound to claims</h3>
      <ul className="plain bindings" data-testid={`${testId}-bound`}>
        {detail.boundTo.length === 0 && <li className="muted small">No claim you can see binds this revision.</li>}
        {detail.boundTo.map((b) => (
          <li key={b.claimId} className="binding">
            <div className="row wrap">
              <RelationTag relation={b.relation} />
              <span className="muted small">{b.role}</span>
              <code>{b.claimId}</code>
            </div>
            <div className="small">
              <InertLabel text={b.statement} />
            </div>
            <UnbindButton claimId={b.claimId} revisionId={detail.revisionId} testId={`${testId}-unbind-${b.claimId}`} />
          </li>
        ))}
      </ul>
      <BindToClaim revisionId={detail.revisionId} testId={`${testId}-bind`} />
      <WhatIfLink revisionId={detail.revisionId} testId={`${testId}-whatif`} />
      {detail.validation && (
        <>
          <h3>Validation checklist</h3>
          <ValidationRun run={detail.validation} testId={`${testId}-validation`} />
        </>
      )}
      <h3>Lineage</h3>
      <Lineage detail={detail} onSelect={onSelectRevision} testId={`${testId}-lineage`} />
      <h3>Lifecycle history</h3>
      <TransitionHistory transitions={detail.transitions} testId={`${testId}-history`} />
      <h3>Lifecycle move</h3>
      <TransitionForm key={detail.revisionId} revisionId={detail.revisionId} state={detail.state} testId={`${testId}-transition`} />
    </article>
  );
}
