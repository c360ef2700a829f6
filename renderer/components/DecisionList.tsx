import type { DecisionView } from '../../shared/ipc/channels/decisions';
import { DecisionStatusBadge, ProjectionBadge } from './Badges';
import { DecisionActions } from './DecisionActions';
import { Fingerprint } from './Fingerprint';
import { formatTime } from './format';

/** Proposals and approvals rest on the claim as it is; for rejected or withdrawn ones currency is moot. */
const live = (d: DecisionView) => d.status === 'PROPOSED' || d.status === 'APPROVED';

function DecisionCard({ d, claimAuthor, testId }: { d: DecisionView; claimAuthor: string; testId: string }) {
  const t = `${testId}-${d.decisionId}`;
  const stale = live(d) && !d.current;
  return (
    <li className={`decision decision-${d.status}${stale ? ' is-stale' : ''}${d.effective ? ' is-effective' : ''}`} data-testid={t} data-status={d.status} data-current={String(d.current)}>
      <div className="row wrap">
        <DecisionStatusBadge status={d.status} testId={`${t}-status`} />
        {d.effective && <span className="badge in-force">IN FORCE</span>}
        <b data-testid={`${t}-verdict`}>{d.verdict}</b>
        <code className="small">{d.decisionId}</code>
        <span className="muted small">generation {d.generation}</span>
        <span className="grow" />
        {live(d) &&
          (d.current ? (
            <span className="badge fp-current" data-testid={`${t}-currency`}>
              CURRENT
            </span>
          ) : (
            <span className="badge fp-stale" data-testid={`${t}-currency`}>
              STALE
            </span>
          ))}
      </div>
      <div className="muted small">
        proposed by <b>{d.proposedBy}</b> at {formatTime(d.proposedAt)}
        {d.decidedBy && (
          <>
            {' '}
            · {d.status.toLowerCase()} by <b>{d.decidedBy}</b> at {formatTime(d.decidedAt)}
          </>
        )}
      </div>
      <div className="history-reason" data-testid={`${t}-rationale`}>
        {d.rationale}
      </div>
      {d.decisionNote && (
        <div className="small">
          <span className="muted">{d.status === 'APPROVED' ? 'Approval note' : 'Reason'}: </span>
          {d.decisionNote}
        </div>
      )}
      <div className="row wrap small">
        <span className="muted">Fingerprint</span>
        <Fingerprint value={d.fingerprint} testId={`${t}-fingerprint`} />
        <span className="muted">
          over {d.evidenceRefs.length + d.hiddenEvidenceRefs} revision{d.evidenceRefs.length + d.hiddenEvidenceRefs === 1 ? '' : 's'}
          {d.hiddenEvidenceRefs > 0 && ` (${d.hiddenEvidenceRefs} outside your clearance)`}
          {d.computationRefs.length > 0 && ` and ${d.computationRefs.length} computation${d.computationRefs.length === 1 ? '' : 's'}`}
        </span>
      </div>
      <div className="refs small" data-testid={`${t}-refs`}>
        {d.evidenceRefs.map((r) => (
          <code key={r}>{r}</code>
        ))}
        {d.computationRefs.map((r) => (
          <code key={r} className="computation" title="computation ref">
            {r}
          </code>
        ))}
      </div>
      {stale && (
        <div className="stale-note" data-testid={`${t}-changes`}>
          <b>Stale:</b> the fingerprint no longer matches the claim. What moved since:
          <ul>
            {d.changes.map((c, i) => (
              <li key={i}>{c}</li>
            ))}
          </ul>
        </div>
      )}
      {live(d) && d.current && d.projection && (d.projection !== 'ELIGIBLE' || d.pendingRevalidation) && (
        <div className="row wrap small" data-testid={`${t}-projection`}>
          <ProjectionBadge projection={d.projection} />
          <span className="muted">
            {d.pendingRevalidation
              ? 'evidence it rests on was taken out of normal flows (revoked, superseded, quarantined or disputed); it is pending revalidation until the worker recomputes it'
              : 'its evidence no longer fully carries it: see Remediations'}
          </span>
        </div>
      )}
      {d.status === 'PROPOSED' && <DecisionActions decision={d} claimAuthor={claimAuthor} testId={t} />}
    </li>
  );
}

/** A claim's decisions, newest first, each with its fingerprint, currency and (when open) its actions. */
export function DecisionList({ decisions, claimAuthor, testId }: { decisions: readonly DecisionView[]; claimAuthor: string; testId: string }) {
  if (decisions.length === 0) {
    return (
      <p className="muted small" data-testid={`${testId}-none`}>
        No decision has been proposed on this claim.
      </p>
    );
  }
  return (
    <ul className="plain decisions" data-testid={testId}>
      {[...decisions].reverse().map((d) => (
        <DecisionCard key={d.decisionId} d={d} claimAuthor={claimAuthor} testId={testId} />
      ))}
    </ul>
  );
}
