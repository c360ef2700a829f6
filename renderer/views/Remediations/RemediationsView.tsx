import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  selectActorId,
  selectCasePath,
  selectClaims,
  selectRemediationActions,
  selectRemediationError,
  selectRemediations,
  selectRevocationStatus,
  selectSelectedRemediation,
} from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { ProjectionBadge } from '../../components/Badges';
import { RemediationDetail } from './RemediationDetail';
import { ConvergenceSummary, RevocationTable } from './RevocationProgress';
import './remediations.css';
import { InertLabel } from '../../components/InertLabel';

/** While the view is open, convergence is polled so the progress and the queue stay live. */
const POLL_MS = 2000;

export function RemediationsView() {
  const remediations = useWorkbench(selectRemediations);
  const status = useWorkbench(selectRevocationStatus);
  const error = useWorkbench(selectRemediationError);
  const selected = useWorkbench(selectSelectedRemediation);
  const actorId = useWorkbench(selectActorId);
  const casePath = useWorkbench(selectCasePath);
  const claims = useWorkbench(selectClaims);
  // Every claim that is not ELIGIBLE now, pending revalidation first: with or without a decision.
  const notCurrent = useMemo(
    () => claims.filter((c) => c.projection && c.projection !== 'ELIGIBLE').sort((a, b) => Number(!!b.pendingRevalidation) - Number(!!a.pendingRevalidation)),
    [claims],
  );
  const { loadRemediations, loadRevocationStatus, selectRemediation } = useWorkbench(useShallow(selectRemediationActions));

  // A different case or acting reviewer (another clearance) sees a different queue.
  useEffect(() => {
    void loadRemediations();
  }, [loadRemediations, actorId, casePath]);
  useEffect(() => {
    const timer = setInterval(() => void loadRevocationStatus(), POLL_MS);
    return () => clearInterval(timer);
  }, [loadRevocationStatus]);

  const current = remediations.find((r) => r.remediationId === selected) ?? remediations.find((r) => r.status === 'OPEN') ?? remediations[0] ?? null;
  const open = remediations.filter((r) => r.status === 'OPEN');
  const resolved = remediations.filter((r) => r.status === 'RESOLVED');

  const entry = (r: (typeof remediations)[number]) => (
    <li key={r.remediationId}>
      <button
        type="button"
        className={`list-button${current?.remediationId === r.remediationId ? ' active' : ''}`}
        aria-current={current?.remediationId === r.remediationId ? 'true' : undefined}
        data-testid={`remediation-entry-${r.claimId}`}
        data-status={r.status}
        onClick={() => selectRemediation(r.remediationId)}
      >
        <ProjectionBadge projection={r.projection} /> <code className="small">{r.claimId}</code>
        <span className="queue-text"><InertLabel text={r.statement} /></span>
        <span className="queue-reason small">
          {r.causes.map((c) => `${c.revisionId} ${c.cause.toLowerCase()} by ${c.actor}`).join('; ')}
        </span>
        {r.status === 'RESOLVED' && <span className="muted small">{r.resolution} by {r.resolvedBy}</span>}
      </button>
    </li>
  );

  return (
    <div className="queue-layout">
      <section className="panel queue-pane remediation-pane">
        <h1>Remediations</h1>
        <p className="muted small">
          Approved decisions whose evidence was revoked, superseded, quarantined or disputed. Dependents are protected the moment the change commits; the worker
          recomputes each one, and each decision that left ELIGIBLE waits here for its owner.
        </p>
        {error && (
          <p className="error small" role="alert" data-testid="remediation-load-error">
            {error}
          </p>
        )}
        <ConvergenceSummary status={status} />
        <h2>Claims not eligible</h2>
        <ul className="plain small" data-testid="projection-claims">
          {notCurrent.map((c) => (
            <li key={c.claimId} data-testid={`projection-claim-${c.claimId}`} title={c.projectionReasons?.join('\n')}>
              <ProjectionBadge projection={c.projection!} /> <code>{c.claimId}</code>
            </li>
          ))}
        </ul>
        {notCurrent.length === 0 && (
          <p className="muted small" data-testid="projection-claims-none">
            Every claim you may see is ELIGIBLE on its evidence.
          </p>
        )}
        <h2>Open</h2>
        <ul className="plain queue" data-testid="remediation-queue">
          {open.map(entry)}
        </ul>
        {open.length === 0 && (
          <p className="muted" data-testid="remediation-empty">
            No open remediation: no approved decision you may see lost the evidence it rested on.
          </p>
        )}
        {resolved.length > 0 && (
          <>
            <h2>Resolved</h2>
            <ul className="plain queue" data-testid="remediation-resolved">
              {resolved.map(entry)}
            </ul>
          </>
        )}
      </section>
      <div className="queue-detail stack">
        {current && <RemediationDetail key={current.remediationId} remediation={current} />}
        <RevocationTable status={status} />
      </div>
    </div>
  );
}
