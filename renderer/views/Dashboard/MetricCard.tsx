import { useState } from 'react';
import type { IdSample, RateMetric } from '../../../shared/ipc/channels/drill';

const GOAL_LABEL: Record<RateMetric['goal'], string> = { one: 'should be 100%', zero: 'must be 0', higher: 'higher is better' };

export const percent = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(rate === 0 || rate === 1 ? 0 : 1)}%`);

/** One §37 metric: its rate with a bar, the counts it is made of, its goal, and the items behind it. */
export function MetricCard({ metric, testId, onOpen }: { metric: RateMetric; testId: string; onOpen: (kind: IdSample['kind'], id: string) => void }) {
  const [open, setOpen] = useState(false);
  const state = metric.meetsGoal === null ? 'neutral' : metric.meetsGoal ? 'ok' : 'bad';
  return (
    <article className={`metric-card metric-${state}`} data-testid={testId}>
      <header className="row wrap">
        <h3>{metric.name}</h3>
        <span className="grow" />
        <span className="muted small">{GOAL_LABEL[metric.goal]}</span>
        {metric.meetsGoal !== null && (
          <span className={`badge ${metric.meetsGoal ? 'fp-current' : 'fp-stale'}`} data-testid={`${testId}-goal`}>
            {metric.meetsGoal ? 'meets goal' : 'FAILS goal'}
          </span>
        )}
      </header>
      <div className="row">
        <b className="metric-rate" data-testid={`${testId}-rate`}>
          {percent(metric.rate)}
        </b>
        <span className="muted small" data-testid={`${testId}-counts`}>
          {metric.numerator.toLocaleString('en')} of {metric.denominator.toLocaleString('en')}
        </span>
      </div>
      <div className="metric-bar" role="img" aria-label={`${metric.name}: ${percent(metric.rate)}`}>
        <span style={{ width: `${Math.round((metric.rate ?? 0) * 100)}%` }} />
      </div>
      <p className="muted small">{metric.definition}</p>
      {Object.keys(metric.breakdown).length > 0 && (
        <dl className="metric-breakdown small">
          {Object.entries(metric.breakdown).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v.toLocaleString('en')}</dd>
            </div>
          ))}
        </dl>
      )}
      {metric.ids.some((s) => s.total > 0) && (
        <button type="button" className="link small" aria-expanded={open} data-testid={`${testId}-items`} onClick={() => setOpen(!open)}>
          {open ? 'Hide the items' : 'Show the items behind it'}
        </button>
      )}
      {open && <IdSamples samples={metric.ids} testId={`${testId}-ids`} onOpen={onOpen} />}
    </article>
  );
}

export function IdSamples({ samples, testId, onOpen }: { samples: readonly IdSample[]; testId: string; onOpen: (kind: IdSample['kind'], id: string) => void }) {
  return (
    <div className="stack small" data-testid={testId}>
      {samples
        .filter((s) => s.total > 0)
        .map((s) => (
          <div key={s.label}>
            <span className="muted">
              {s.label} ({s.total.toLocaleString('en')}
              {s.total > s.ids.length ? `, first ${s.ids.length}` : ''}):
            </span>{' '}
            {s.ids.map((id) => (
              <button key={id} type="button" className="link mono" onClick={() => onOpen(s.kind, id)}>
                {id}
              </button>
            ))}
          </div>
        ))}
    </div>
  );
}
