import type { RevisionSummary } from '../../../shared/domain/schemas';
import { StateBadge } from '../../components/Badges';
import { formatTime } from '../../components/format';
import { InertLabel } from '../../components/InertLabel';

export function EvidenceTable({
  rows,
  selectedId,
  onSelect,
}: {
  rows: readonly RevisionSummary[];
  selectedId: string | null;
  onSelect: (revisionId: string) => void;
}) {
  return (
    <table className="table selectable dense" data-testid="evidence-table">
      <thead>
        <tr>
          <th>state · kind</th>
          <th>revision · title</th>
          <th>source · producer</th>
          <th>observed (UTC)</th>
          <th>tenant</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.revisionId}
            data-testid={`evidence-row-${r.revisionId}`}
            aria-selected={r.revisionId === selectedId}
            className={r.revisionId === selectedId ? 'selected' : undefined}
            tabIndex={0}
            onClick={() => onSelect(r.revisionId)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect(r.revisionId);
              }
            }}
          >
            <td className="nowrap">
              <StateBadge state={r.state} testId={`evidence-row-state-${r.revisionId}`} />
              <div className="small muted">{r.kind}</div>
            </td>
            <td className="wrap title-cell">
              <div><InertLabel text={r.title} /></div>
              <code className="small muted">{r.revisionId}</code>
            </td>
            <td>
              {r.sourceType}
              <div className="muted small">{r.producer}</div>
            </td>
            <td className="mono nowrap small">
              {/* Date over time keeps the column narrow enough for the title to breathe. */}
              {formatTime(r.observedAt).split(' ').map((part) => (
                <div key={part}>{part}</div>
              ))}
            </td>
            <td className="small">
              {r.tenant}
              <div className={`class-${r.classification}`}>{r.classification}</div>
            </td>
          </tr>
        ))}
        {rows.length === 0 && (
          <tr>
            <td colSpan={5} className="muted" data-testid="evidence-empty">
              No visible revision matches these filters.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
