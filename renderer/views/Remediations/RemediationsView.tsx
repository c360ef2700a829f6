import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  selectActorId,
  selectCasePath,
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
import { usePaged } from '../../components/usePaged';
import { call } from '../../bridge';

/** While the view is open, convergence is polled so the progress and the queue stay live. */
const POLL_MS = 2000;

export function RemediationsView() {
  const remediations = useWorkbench(selectRemediations);
  const status = useWorkbench(selectRevocationStatus);
  const error = useWorkbench(selectRemediationError);
  const selected = useWorkbench(selectSelectedRemediation);
  const actorId = useWorkbench(selectActorId);
  const casePath = useWorkbench(selectCasePath);
  // Claims that are not ELIGIBLE now, with or without a decision, a page at a time from the store: those a
  // revocation just touched (pending revalidation) unless the analyst asks for every one.
  const [scope, setScope] = useState<'pending' | 'all'>('pending');
  const notCurrent = usePaged(scope, (after) =>
    call('claim:page', {
      ...(scope === 'pending' ? { projection: 'PENDING_REVALIDATION' as const } : { unsettled: true }),
      limit: 100,
      ...(after === undefined ? { counts: true } : { after }),
    }),
  );
  const { loadRemediations, loadRevocationStatus, selectRemediation } = useWorkbench(useShallow(selectRemediationActions));
  // The queue was read again (a poll saw convergence move): so may the claims' projections have.
  const { reload: reloadNotCurrent } = notCurrent;
  useEffect(reloadNotCurrent, [reloadNotCurrent, remediations]);

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
        <h2>
          Claims not eligible{' '}
          {notCurrent.counts && (
            <span className="count" data-testid="projection-claims-count">
              {notCurrent.counts.total.toLocaleString('en')}
            </span>
          )}
        </h2>
        <div className="row wrap scope-chips" role="group" aria-label="Which claims not eligible">
          {(['pending', 'all'] as const).map((v) => (
            <button key={v} type="button" className={`chip${scope === v ? ' active' : ''}`} aria-pressed={scope === v} data-testid={`projection-claims-scope-${v}`} onClick={() => setScope(v)}>
              {v === 'pending' ? 'Pending revalidation' : 'All'}
            </button>
          ))}
        </div>
        {notCurrent.error !== null && (
          <div className="error-notice" role="alert" data-testid="projection-claims-error">
            The claims not eligible could not be read: {notCurrent.error}{' '}
            <button type="button" className="secondary small" onClick={notCurrent.items.length === 0 ? notCurrent.reload : notCurrent.loadMore}>
              Retry
            </button>
          </div>
        )}
        <ul className="plain small" data-testid="projection-claims">
          {notCurrent.items.map((c) => (
            <li key={c.claimId} data-testid={`projection-claim-${c.claimId}`} title={c.projectionReasons?.join('\n')}>
              <ProjectionBadge projection={c.projection!} /> <code>{c.claimId}</code>
            </li>
          ))}
        </ul>
        {notCurrent.hasMore && (
          <button type="button" className="secondary small" data-testid="projection-claims-more" disabled={notCurrent.loading} onClick={notCurrent.loadMore}>
            Show more
          </button>
        )}
        {notCurrent.items.length === 0 && notCurrent.error === null && notCurrent.counts !== null && (
          <p className="muted small" data-testid="projection-claims-none">
            {scope === 'pending' ? 'No claim waits for revalidation.' : 'Every claim you may see is ELIGIBLE on its evidence.'}
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
