import type { Transition } from '../../shared/domain/schemas';
import { StateBadge } from './Badges';
import { formatTime } from './format';

/** Every lifecycle move of a revision, oldest first, as the service recorded it. */
export function TransitionHistory({ transitions, testId }: { transitions: readonly Transition[]; testId: string }) {
  return (
    <table className="table dense" data-testid={testId}>
      <thead>
        <tr>
          <th>at (UTC)</th>
          <th>from → to</th>
          <th>reason</th>
          <th>actor</th>
          <th>supporting ref</th>
        </tr>
      </thead>
      <tbody>
        {transitions.map((t, i) => (
          <tr key={i} data-testid={`${testId}-row`}>
            <td className="mono nowrap">{formatTime(t.at)}</td>
            <td className="nowrap">
              {t.from ? <StateBadge state={t.from} /> : <span className="muted">new</span>} → <StateBadge state={t.to} />
            </td>
            <td className="wrap">{t.reason}</td>
            <td>{t.actor}</td>
            <td className="mono">{t.supportingRef ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
