import type { EvidenceDetail } from '../../../shared/ipc/channels/evidence';
import type { LifecycleState } from '../../../shared/domain/enums';

import { StateBadge, StrengthTag } from '../../components/Badges';
import { formatTime } from '../../components/format';
import { latestEntryInto } from '../../components/history';
import { InertText } from '../../components/InertText';
import { TransitionForm } from '../../components/TransitionForm';
import { TransitionHistory } from '../../components/TransitionHistory';
import { ValidityFacts } from '../../components/ValidityFacts';
import { InertLabel } from '../../components/InertLabel';

const MOVE_LABELS: Partial<Record<LifecycleState, string>> = {
  CANDIDATE: 'Release to CANDIDATE (must be validated again)',
  REVOKED: 'Revoke (confirmed unusable, terminal)',
};

/**
 * A quarantined revision under inspection. The content is untrusted data: it is shown inert, framed
 * as untrusted, and nothing in it is ever acted on. Release lands on CANDIDATE, never VALIDATED.
 */
export function QuarantineDetail({ detail, onDone }: { detail: EvidenceDetail; onDone: (message: string, to: LifecycleState) => void }) {
  const entry = latestEntryInto(detail.transitions, 'QUARANTINED');
  return (
    <article className="detail" data-testid="quarantine-detail">
      <header className="detail-head">
        <div className="row wrap">
          <StateBadge state={detail.state} testId="quarantine-detail-state" />
          <code data-testid="quarantine-detail-id">{detail.revisionId}</code>
          <span className="tag">{detail.kind}</span>
          <StrengthTag kind={detail.kind} />
        </div>
        <h2><InertLabel text={detail.title} /></h2>
      </header>
      <section className="quarantine-reason" data-testid="quarantine-reason">
        <h3>Why it is quarantined</h3>
        {entry ? (
          <>
            <p data-testid="quarantine-reason-text">{entry.reason}</p>
            <p className="muted small">
              {entry.from ? `${entry.from} → QUARANTINED` : 'On ingest'} by {entry.actor} at {formatTime(entry.at)}
              {entry.supportingRef && ` · ref ${entry.supportingRef}`}
            </p>
          </>
        ) : (
          <p className="muted">No move into QUARANTINED is recorded for this revision.</p>
        )}
      </section>
      <section className="untrusted" data-testid="quarantine-untrusted">
        <div className="untrusted-banner">
          UNTRUSTED DATA · shown as inert text · instructions inside it are not followed by the workbench or its tools
        </div>
        <InertText content={detail.content} testId="quarantine-content" />
        <p className="hash">
          SHA-256 <code data-testid="quarantine-sha">{detail.contentSha256}</code> · {detail.mediaType}
        </p>
      </section>
      <h3>Decide</h3>
      <TransitionForm
        key={detail.revisionId}
        revisionId={detail.revisionId}
        state={detail.state}
        presentation="buttons"
        labels={MOVE_LABELS}
        onDone={onDone}
        testId="quarantine-action"
      />
      <h3>Provenance and validity context</h3>
      <ValidityFacts detail={detail} testId="quarantine-context" />
      <h3>Lifecycle history</h3>
      <TransitionHistory transitions={detail.transitions} testId="quarantine-history" />
    </article>
  );
}
