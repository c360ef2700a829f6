import type { RemediationView } from '../../../shared/ipc/channels/remediation';
import { ProjectionBadge, RelationTag, StateBadge } from '../../components/Badges';
import { formatTime } from '../../components/format';
import { RemediationActions } from './RemediationActions';
import { InertLabel } from '../../components/InertLabel';

const WHY: Record<RemediationView['causes'][number]['cause'], string> = {
  REVOKED: 'revoked',
  SUPERSEDED: 'superseded',
  QUARANTINED: 'quarantined',
  DISPUTED: 'disputed',
  DERIVED: 'derived from evidence taken out of normal flows',
};

/** One remediation: what was revoked, by whom and why; what it took away; and the way out. */
export function RemediationDetail({ remediation: r }: { remediation: RemediationView }) {
  const current = r.bindings.filter((b) => !b.historical);
  const history = r.bindings.filter((b) => b.historical);
  return (
    <article className="panel detail" data-testid="remediation-detail" data-remediation-id={r.remediationId}>
      <header className="detail-head">
        <div className="row wrap">
          <span className={`badge remediation-${r.status}`} data-testid="remediation-status">
            {r.status === 'OPEN' ? 'OPEN' : `RESOLVED: ${r.resolution}`}
          </span>
          <ProjectionBadge projection={r.projection} testId="remediation-projection" />
          <code data-testid="remediation-claim">{r.claimId}</code>
          <span className="muted small">owner {r.owner}</span>
        </div>
        <h2><InertLabel text={r.statement} /></h2>
      </header>
      <dl className="facts compact">
        <div className="fact">
          <dt>Decision</dt>
          <dd data-testid="remediation-decision">
            <code className="small">{r.decision.decisionId}</code> {r.decision.verdict}, approved by {r.decision.decidedBy ?? '—'}
          </dd>
        </div>
        <div className="fact">
          <dt>Opened</dt>
          <dd>
            {formatTime(r.openedAt)} on generation {r.openedOnGeneration} (left ELIGIBLE for {r.openedProjection})
          </dd>
        </div>
        <div className="fact">
          <dt>Claim generation now</dt>
          <dd data-testid="remediation-generation">{r.currentGeneration}</dd>
        </div>
        <div className="fact">
          <dt>Convergence</dt>
          <dd data-testid="remediation-convergence">
            {r.convergence.converged}/{r.convergence.total ?? '?'} dependents converged, {r.convergence.openJobs} jobs open
          </dd>
        </div>
      </dl>

      <h3>Cause</h3>
      <div data-testid="remediation-causes">
        {r.causes.map((c) => (
          <div key={c.fenceId} className={`cause cause-${c.cause}`} data-testid={`remediation-cause-${c.revisionId}`}>
            <div>
              <code>{c.revisionId}</code> was {WHY[c.cause]} by <b>{c.actor}</b> at {formatTime(c.fencedAt)}
              {c.supportingRef && <span className="muted small"> · ref {c.supportingRef}</span>}
            </div>
            <div className="small">Why: {c.reason}</div>
          </div>
        ))}
        {r.hiddenCauses > 0 && <p className="muted small">{r.hiddenCauses} more cause(s) on evidence outside your clearance.</p>}
      </div>

      <h3>Projection</h3>
      <ul className="reasons small" data-testid="remediation-projection-reasons">
        {r.projectionReasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>

      <h3>Affected bindings</h3>
      <table className="table dense" data-testid="remediation-affected">
        <thead>
          <tr>
            <th>Revision</th>
            <th>Role</th>
            <th>Relation</th>
            <th>State</th>
            <th>Why affected</th>
          </tr>
        </thead>
        <tbody>
          {r.affected.map((a) => (
            <tr key={a.bindingId} data-testid={`remediation-affected-${a.revisionId}`}>
              <td>
                <code className="small">{a.revisionId}</code>
                <div className="muted small"><InertLabel text={a.title} /></div>
              </td>
              <td>{a.role}</td>
              <td>
                <RelationTag relation={a.relation} />
              </td>
              <td>
                <StateBadge state={a.state} />
              </td>
              <td className="small">{WHY[a.why]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.hiddenAffected > 0 && <p className="muted small">{r.hiddenAffected} affected binding(s) outside your clearance.</p>}

      <h3>Bindings</h3>
      <table className="table dense" data-testid="remediation-bindings">
        <thead>
          <tr>
            <th>Generation</th>
            <th>Revision</th>
            <th>Role</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {[...current, ...history].map((b) => (
            <tr
              key={b.bindingId}
              className={b.historical ? 'historical' : b.affected ? 'affected' : undefined}
              data-testid={`remediation-binding-${b.generation}-${b.revisionId}`}
              data-historical={b.historical ? 'true' : 'false'}
            >
              <td>
                {b.generation}
                {b.historical && <span className="muted small"> (history)</span>}
              </td>
              <td>
                <code className="small">{b.revisionId}</code>
              </td>
              <td>{b.role}</td>
              <td>
                <StateBadge state={b.state} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {r.status === 'OPEN' ? (
        <>
          <h3>Resolve</h3>
          <RemediationActions key={`${r.remediationId}:${r.projectionVersion}`} remediation={r} />
        </>
      ) : (
        <section data-testid="remediation-resolution">
          <h3>Resolution</h3>
          <p>
            <b>{r.resolution}</b> by {r.resolvedBy} at {formatTime(r.resolvedAt)}: {r.resolutionReason}
          </p>
          <p className="muted small">
            The claim moved to generation {r.newGeneration}
            {r.carriedDecisionId && (
              <>
                ; decision <code>{r.carriedDecisionId}</code> carries the verdict on the successor revisions
              </>
            )}
            . The earlier generation&apos;s bindings and decision stay as history.
          </p>
        </section>
      )}
    </article>
  );
}
