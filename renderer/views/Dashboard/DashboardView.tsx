import { useCallback, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { IdSample, MetricsReport, RateMetric, RevocationDelay } from '../../../shared/ipc/channels/drill';
import { call } from '../../bridge';
import { messageOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';
import { DrillPanel } from './DrillPanel';
import { IdSamples, MetricCard } from './MetricCard';

const RATES = [
  'provenanceCompleteness',
  'validationRate',
  'conflictDetectionRate',
  'independentCorroborationRate',
  'falseConsensusRate',
  'staleEvidenceUseRate',
  'unauthorizedRetrievalRate',
] as const;

/** A drill figure in the metric cards' shape (the drill ran on a copy; nothing behind it to open here). */
function drillRate(name: string, definition: string, numerator: number, denominator: number, goal: RateMetric['goal']): RateMetric {
  const rate = denominator === 0 ? null : numerator / denominator;
  return { name, definition, numerator, denominator, rate, goal, meetsGoal: goal === 'zero' ? numerator === 0 : null, breakdown: {}, ids: [] };
}

const ms = (v: number | null) => (v === null ? '—' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);

/**
 * The case's health in the seed's §37 metrics (DESIGN §4), computed by the store within your
 * clearance (metrics:get), each with the items behind it; and the propagation drill, which runs on
 * a copy of the case and reports what a planted false item and an injection would do.
 */
export function DashboardView() {
  const { setView, selectRevision, focusGraph } = useWorkbench(useShallow((s) => ({ setView: s.setView, selectRevision: s.selectRevision, focusGraph: s.focusGraph })));
  const [report, setReport] = useState<MetricsReport | null>(null);
  const lastDrill = useWorkbench((s) => s.lastDrill);
  const [error, setError] = useState<string | null>(null);
  const read = useCallback(async () => {
    try {
      setReport(await call('metrics:get', {}));
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);
  useEffect(() => void read(), [read]);

  const open = (kind: IdSample['kind'], id: string) => {
    if (kind === 'claim') {
      void focusGraph({ kind: 'claim', id });
      setView('graph');
    } else if (kind === 'revision') {
      selectRevision(id);
      setView('evidence');
    } else if (kind === 'decision') setView('review');
    else setView('remediations');
  };

  return (
    <section className="panel stack" data-testid="dashboard">
      <div className="row wrap">
        <h1>Dashboard</h1>
        <span className="grow" />
        <button type="button" className="secondary small" data-testid="dashboard-reload" onClick={() => void read()}>
          Reload
        </button>
      </div>
      <p className="lead">How far the case can be trusted, in the measures of seed 000 §37, computed by the store over what you may see.</p>
      {error && (
        <div className="error-notice" role="alert" data-testid="dashboard-error">
          The metrics could not be read: {error}{' '}
          <button type="button" className="secondary small" onClick={() => void read()}>
            Retry
          </button>
        </div>
      )}
      {report && (
        <>
          <p className="muted small" data-testid="dashboard-computed">
            Computed at {report.computedAt} for {report.reader} in {ms(report.elapsedMs)}.
          </p>
          <div className="metric-grid">
            {RATES.map((key) => (
              <MetricCard key={key} metric={report[key]} testId={`metric-${key}`} onOpen={open} />
            ))}
            <DelayCard delay={report.revocationPropagationDelay} onOpen={open} />
            {lastDrill && (
              <>
                <MetricCard metric={drillRate('Error propagation rate (last drill)', lastDrill.errorPropagation.definition, lastDrill.errorPropagation.changed, lastDrill.errorPropagation.affectable, 'higher')} testId="metric-errorPropagation" onOpen={open} />
                <MetricCard
                  metric={drillRate(
                    'Injection propagation (last drill)',
                    'Kinds of effect the planted injection item had beyond its own row, of those the drill measures: permission changes, tool calls, outbox jobs, lifecycle moves, tenant boundary crossings, claims changed, decisions changed. Must be 0.',
                    Object.values(lastDrill.injectionPropagation.effects).filter((n) => n > 0).length,
                    Object.keys(lastDrill.injectionPropagation.effects).length,
                    'zero',
                  )}
                  testId="metric-injectionPropagation"
                  onOpen={open}
                />
              </>
            )}
          </div>
        </>
      )}
      <DrillPanel onOpen={open} />
    </section>
  );
}

function DelayCard({ delay, onOpen }: { delay: RevocationDelay; onOpen: (kind: IdSample['kind'], id: string) => void }) {
  const { fence, convergence } = delay;
  return (
    <article className={`metric-card metric-${fence.meetsGoal ? 'ok' : 'bad'}`} data-testid="metric-revocationPropagationDelay">
      <header className="row wrap">
        <h3>{delay.name}</h3>
        <span className="grow" />
        <span className={`badge ${fence.meetsGoal ? 'fp-current' : 'fp-stale'}`}>{fence.meetsGoal ? 'fenced at once' : 'UNFENCED moves'}</span>
      </header>
      <p className="small">
        Fence: {fence.fenced.toLocaleString('en')} of {fence.transitions.toLocaleString('en')} moves out of normal flows fenced in the same transaction.
      </p>
      <p className="small" data-testid="metric-revocationPropagationDelay-convergence">
        Convergence per job: p50 {ms(convergence.jobs.p50Ms)}, p95 {ms(convergence.jobs.p95Ms)}, max {ms(convergence.jobs.maxMs)} ({convergence.jobs.count} jobs); per revocation: p50{' '}
        {ms(convergence.fences.p50Ms)}, max {ms(convergence.fences.maxMs)}. Open jobs: {convergence.openJobs}
        {convergence.oldestOpenJobAgeMs !== null && `, the oldest ${ms(convergence.oldestOpenJobAgeMs)} old`}.
      </p>
      <p className="muted small">{delay.definition}</p>
      <IdSamples samples={[...fence.ids, ...convergence.ids]} testId="metric-revocationPropagationDelay-ids" onOpen={onOpen} />
    </article>
  );
}
