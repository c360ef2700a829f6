import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useWorkbench } from '../../state/store';
import type { IdSample } from '../../../shared/ipc/channels/drill';
import { call } from '../../bridge';
import { messageOf } from '../../state/actionError';
import { percent } from './MetricCard';

/**
 * The propagation drill (seed 000 §35–36) from the window: it runs on a temporary copy of the
 * case (drill:run), never on the case itself, and reports what a planted false item, its copy and
 * an injection did there.
 */
export function DrillPanel({ onOpen }: { onOpen: (kind: IdSample['kind'], id: string) => void }) {
  const { report, setReport } = useWorkbench(useShallow((s) => ({ report: s.lastDrill, setReport: s.setLastDrill })));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setReport(await call('drill:run', {}));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const ep = report?.errorPropagation;
  return (
    <div className="card stack" data-testid="drill">
      <div className="row wrap">
        <h2>Propagation drill</h2>
        <span className="grow" />
        <button type="button" data-testid="drill-run" disabled={busy} onClick={() => void run()}>
          {busy ? 'Running on a copy…' : 'Run the drill'}
        </button>
      </div>
      <p className="muted small">
        On a temporary copy of this case (the case itself is never written): plants a false candidate item and a forwarded copy of it where a hurried analyst
        would attach them, and an item that tells reviewers to skip validation; runs the normal pipeline; reports what propagated.
      </p>
      {error && (
        <div className="error-notice" role="alert" data-testid="drill-error">
          The drill could not run: {error}
        </div>
      )}
      {report && ep && (
        <div className="stack" data-testid="drill-report">
          <p className={report.verdict.passed ? 'ok' : 'error-notice'} data-testid="drill-verdict">
            {report.verdict.passed ? 'Passed' : `FAILED: ${report.verdict.failures.join('; ')}`} · {Math.round(report.elapsedMs)} ms on a copy of{' '}
            {(report.copy.bytes / 1e6).toFixed(1)} MB (removed: {String(report.copy.removed)})
          </p>
          <div className="counts-row">
            <div className="count-box">
              <span className="muted small">Error propagation rate</span>
              <b data-testid="drill-error-rate">
                {percent(ep.rate)} ({ep.changed} of {ep.affectable})
              </b>
            </div>
            <div className="count-box">
              <span className="muted small">Adopted as evidence (must be 0)</span>
              <b data-testid="drill-adopted">{ep.adopted}</b>
            </div>
            <div className="count-box">
              <span className="muted small">Injection quarantined</span>
              <b data-testid="drill-quarantined">{report.injectionPropagation.quarantined ? 'yes' : 'NO'}</b>
            </div>
            <div className="count-box">
              <span className="muted small">Injection propagation (must be 0)</span>
              <b data-testid="drill-injection">{report.injectionPropagation.total}</b>
            </div>
            <div className="count-box">
              <span className="muted small">False consensus rate</span>
              <b data-testid="drill-false-consensus">{percent(report.falseConsensusRate.rate)}</b>
            </div>
            <div className="count-box">
              <span className="muted small">Unauthorized reads (probe)</span>
              <b data-testid="drill-unauthorized">{report.retrievalProbe.unauthorizedReads}</b>
            </div>
          </div>
          <p className="muted small">{ep.definition}</p>
          <h3>What the planted items changed</h3>
          {ep.changes.length === 0 ? (
            <p className="muted small">Nothing on the targets moved.</p>
          ) : (
            <ul className="plain small" data-testid="drill-changes">
              {ep.changes.map((c) => (
                <li key={`${c.kind}:${c.id}`}>
                  <span className="tag">{c.direction}</span>{' '}
                  <button type="button" className="link mono" onClick={() => onOpen('claim', c.claimId)}>
                    {c.id}
                  </button>{' '}
                  {c.fields.map((f) => `${f.field}: ${f.before} → ${f.after}`).join('; ')}
                </li>
              ))}
            </ul>
          )}
          <h3>Attachments</h3>
          <ul className="plain small">
            {report.planted.bindings.map((b) => (
              <li key={`${b.claimId}:${b.revisionId}`}>
                <code>{b.revisionId}</code> → <code>{b.claimId}</code> ({b.relation}): {b.bound ? 'bound' : `refused: ${b.refusal}`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
