import type { Transition } from '../../shared/domain/schemas';
import { StateBadge } from './Badges';
import { formatTime } from './format';

/**
 * Every lifecycle move of a revision, oldest first, as the service recorded it. A list rather than a
 * table: reasons are sentences, and the detail panes are too narrow for five columns.
 */
export function TransitionHistory({ transitions, testId }: { transitions: readonly Transition[]; testId: string }) {
  return (
    <ol className="history" data-testid={testId}>
      {transitions.map((t, i) => (
        <li key={i} data-testid={`${testId}-row`}>
          <div className="row wrap history-head">
            {t.from ? <StateBadge state={t.from} /> : <span className="muted small">new</span>}
            <span aria-label="to">→</span>
            <StateBadge state={t.to} />
            <span className="mono muted">{formatTime(t.at)}</span>
            <span className="small">by {t.actor}</span>
          </div>
          <div className="history-reason">{t.reason}</div>
          {t.supportingRef && (
            <div className="small muted">
              supporting ref <code>{t.supportingRef}</code>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
