import type { ResponseOf } from '../../../shared/ipc/contract';
import { ProjectionBadge, StateBadge, StatusBadge } from '../../components/Badges';
import { InertLabel } from '../../components/InertLabel';

/** What pretending the chosen revisions revoked would change (whatIf:revoke's answer). */
export function WhatIfOutcome({ outcome, onOpenClaim }: { outcome: ResponseOf<'whatIf:revoke'>; onOpenClaim: (claimId: string) => void }) {
  const changed = outcome.claims.filter((c) => c.statusBefore !== c.statusAfter || c.opensRemediation);
  return (
    <div className="stack" data-testid="whatif-outcome">
      <ul className="plain small">
        {outcome.revisions.map((r) => (
          <li key={r.revisionId} className="row">
            <code>{r.revisionId}</code> <StateBadge state={r.state} /> <InertLabel text={r.title} />
            {r.state === 'REVOKED' && <span className="muted">already revoked: nothing changes</span>}
          </li>
        ))}
      </ul>
      <div className="counts-row" data-testid="whatif-counts">
        <div className="count-box">
          <span className="muted small">Claims reached</span>
          <b data-testid="whatif-reached">{outcome.claimsReached}</b>
        </div>
        <div className="count-box">
          <span className="muted small">Status would change</span>
          <b data-testid="whatif-changes">{outcome.statusChanges}</b>
        </div>
        <div className="count-box">
          <span className="muted small">Decisions would go pending (remediation)</span>
          <b data-testid="whatif-remediations">{outcome.remediations}</b>
        </div>
        <div className="count-box">
          <span className="muted small">Derived evidence made stale</span>
          <b>{outcome.derived.length}</b>
        </div>
      </div>
      {outcome.claimsReached === 0 && <p className="muted small">No claim you can see rests on this evidence.</p>}
      {outcome.claims.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Claims the pretended revocation reaches">
          <table className="table dense" data-testid="whatif-claims">
            <thead>
              <tr>
                <th scope="col">Claim</th>
                <th scope="col">Status</th>
                <th scope="col">Support projection</th>
                <th scope="col">Decision in force</th>
                <th scope="col">Evidence lost</th>
              </tr>
            </thead>
            <tbody>
              {outcome.claims.map((c) => (
                <tr key={c.claimId} data-testid={`whatif-claim-${c.claimId}`} className={changed.includes(c) ? '' : 'muted'}>
                  <td>
                    <button type="button" className="link mono" onClick={() => onOpenClaim(c.claimId)}>
                      {c.claimId}
                    </button>
                    <div className="small">
                      <InertLabel text={c.statement} />
                    </div>
                  </td>
                  <td>
                    <StatusBadge status={c.statusBefore} />
                    {c.statusAfter !== c.statusBefore && (
                      <>
                        {' → '}
                        <StatusBadge status={c.statusAfter} testId={`whatif-after-${c.claimId}`} />
                      </>
                    )}
                  </td>
                  <td>
                    <ProjectionBadge projection={c.projectionBefore} />
                    {c.projectionAfter !== c.projectionBefore && (
                      <>
                        {' → '}
                        <ProjectionBadge projection={c.projectionAfter} />
                      </>
                    )}
                  </td>
                  <td className="small">
                    {c.decisionId === null ? <span className="muted">none</span> : c.opensRemediation ? <b>would go pending: remediation opens</b> : 'stands'}
                  </td>
                  <td className="small mono">{c.lost.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {outcome.claimsReached > outcome.claims.length && (
        <p className="muted small">Showing {outcome.claims.length} of {outcome.claimsReached} claims reached (changed ones first).</p>
      )}
    </div>
  );
}
