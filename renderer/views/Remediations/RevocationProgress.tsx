import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RevocationStatus } from '../../../shared/ipc/channels/revocation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatTime } from '../../components/format';
import { selectRemediationActions } from '../../state/selectors';
import type { ActionError } from '../../state/types';
import { useWorkbench } from '../../state/store';
import { InertLabel } from '../../components/InertLabel';

const ms = (v: number | null) => (v === null ? '—' : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);

/** Convergence at a glance (DESIGN §3.5): open outbox jobs, pending claims, and a way to run the worker now. */
export function ConvergenceSummary({ status }: { status: RevocationStatus | null }) {
  const { runRevocationWorker } = useWorkbench(useShallow(selectRemediationActions));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  if (!status) return <p className="muted">Loading convergence…</p>;
  const w = status.worker;
  return (
    <section data-testid="revocation-progress">
      <h2>Convergence</h2>
      <div className="progress-counts">
        <div className="count-box" data-testid="revocation-open-jobs">
          <b>{status.openJobs}</b> open jobs
        </div>
        <div className="count-box" data-testid="revocation-pending-claims">
          <b>{status.pendingClaims}</b> claims pending
        </div>
        <div className="count-box" data-testid="revocation-open-remediations">
          <b>{status.openRemediations}</b> open remediations
        </div>
        <div className="count-box" data-testid="revocation-leased-jobs">
          <b>{status.leasedJobs}</b> jobs leased now
        </div>
      </div>
      <div className="row wrap">
        <span className="muted small" data-testid="revocation-worker">
          {w.mode === 'loop' ? `Background worker ${w.running ? 'running' : 'stopped'}` : 'No background worker in this process'} · {w.jobsProcessed} jobs processed
          {w.lastRunAt && ` · last ${formatTime(w.lastRunAt)}`}
        </span>
        <button
          type="button"
          className="secondary"
          data-testid="revocation-run-worker"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(await runRevocationWorker());
            setBusy(false);
          }}
        >
          {busy ? 'Running…' : 'Run worker now'}
        </button>
      </div>
      {w.lastError && (
        <p className="error small" data-testid="revocation-worker-error">
          Worker stopped on: {w.lastError}
        </p>
      )}
      {error && <ErrorNotice error={error} testId="revocation-run-error" />}
    </section>
  );
}

/**
 * Each revoke or supersede (DESIGN §3.5, §4 metrics): dependents converged out of those found, and
 * the measured delays from the fence's commit to the first job taken and to the last job done.
 */
export function RevocationTable({ status }: { status: RevocationStatus | null }) {
  if (!status) return null;
  return (
    <section className="panel" data-testid="revocation-revocations">
      <h2>Revocations and supersessions</h2>
      {status.revocations.length > 0 ? (
        <table className="table dense" data-testid="revocation-table">
          <thead>
            <tr>
              <th>Revision</th>
              <th>Change</th>
              <th>Dependents converged</th>
              <th>Jobs</th>
              <th title="fence commit → first job taken">Pickup</th>
              <th title="fence commit → last job done">Converged in</th>
            </tr>
          </thead>
          <tbody>
            {status.revocations.map((r) => {
              const total = r.dependentsTotal;
              const pct = total ? Math.round((100 * r.dependentsConverged) / total) : r.openJobs === 0 ? 100 : 0;
              return (
                <tr key={r.fenceId} data-testid={`revocation-row-${r.revisionId}`}>
                  <td>
                    <code className="small">{r.revisionId}</code>
                    <div className="muted small"><InertLabel text={r.title} /></div>
                  </td>
                  <td className="small">
                    <span className={`badge state-${r.cause}`}>{r.cause}</span> by {r.actor}
                    <div className="muted">{formatTime(r.fencedAt)}</div>
                  </td>
                  <td className="small" data-testid={`revocation-converged-${r.revisionId}`}>
                    {r.dependentsConverged}/{total ?? '?'}
                    {r.derivedFences > 0 && ` (+${r.derivedFences} derived revisions)`}
                    <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={`${pct}% converged`}>
                      <span style={{ width: `${pct}%` }} />
                    </div>
                  </td>
                  <td className="small">
                    {r.openJobs} open / {r.jobsDone} done
                  </td>
                  <td className="small">{ms(r.pickupDelayMs)}</td>
                  <td className="small" data-testid={`revocation-delay-${r.revisionId}`}>
                    {r.convergenceMs === null ? 'converging…' : ms(r.convergenceMs)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted small" data-testid="revocation-none">
          No revision you may see has been revoked, superseded, quarantined or disputed.
        </p>
      )}
    </section>
  );
}
