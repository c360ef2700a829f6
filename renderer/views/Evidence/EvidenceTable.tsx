import type { RefObject } from 'react';
import type { LifecycleState } from '../../../shared/domain/enums';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import { StateBadge } from '../../components/Badges';
import { formatTime } from '../../components/format';
import { InertLabel } from '../../components/InertLabel';
import { useVirtualRows } from '../../components/useVirtualRows';

/** Every row is this tall (one line per cell part, cut with an ellipsis), so the list can be drawn a screenful at a time. */
export const EVIDENCE_ROW_PX = 52;
/** Narrower than this, the time and tenant columns give way to the title (both are in the detail). */
const WIDE_PX = 640;

/** Rows a bulk validation may take: the ones waiting for a first validation. */
export const selectableForValidation = (r: RevisionSummary) => r.state === 'CANDIDATE';

/**
 * The evidence queue as a table that draws only the rows in view; `total` is how many match in
 * all (the rows not read yet are read as the list scrolls to them).
 */
export function EvidenceTable({
  rows,
  total,
  scroller,
  selectedId,
  onSelect,
  picked,
  onPick,
}: {
  rows: readonly RevisionSummary[];
  total: number;
  scroller: RefObject<HTMLDivElement | null>;
  selectedId: string | null;
  onSelect: (revisionId: string) => void;
  picked: ReadonlyMap<string, LifecycleState>;
  onPick: (row: RevisionSummary, on: boolean) => void;
}) {
  const w = useVirtualRows(scroller, rows.length, EVIDENCE_ROW_PX);
  const wide = w.width >= WIDE_PX;
  return (
    <table className="table selectable dense fixed-rows" data-testid="evidence-table" aria-rowcount={total + 1}>
      <colgroup>
        <col className="col-pick" />
        <col className="col-state" />
        <col />
        <col className="col-source" />
        {wide && <col className="col-time" />}
        {wide && <col className="col-tenant" />}
      </colgroup>
      <thead>
        <tr aria-rowindex={1}>
          <th aria-label="select" />
          <th>state · kind</th>
          <th>revision · title</th>
          <th>source · producer</th>
          {wide && <th>observed (UTC)</th>}
          {wide && <th>tenant</th>}
        </tr>
      </thead>
      <tbody>
        {w.padTop > 0 && <tr aria-hidden="true" className="spacer" style={{ height: w.padTop }} />}
        {rows.slice(w.start, w.end).map((r, i) => {
          const [date, time] = formatTime(r.observedAt).split(' ');
          return (
            <tr
              key={r.revisionId}
              data-testid={`evidence-row-${r.revisionId}`}
              aria-rowindex={w.start + i + 2}
              aria-selected={r.revisionId === selectedId}
              className={r.revisionId === selectedId ? 'selected' : undefined}
              style={{ height: EVIDENCE_ROW_PX }}
              tabIndex={0}
              onClick={() => onSelect(r.revisionId)}
              onKeyDown={(e) => {
                if (e.target !== e.currentTarget) return;
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onSelect(r.revisionId);
                }
              }}
            >
              <td onClick={(e) => e.stopPropagation()}>
                {selectableForValidation(r) && (
                  <input
                    type="checkbox"
                    aria-label={`select ${r.revisionId}`}
                    data-testid={`evidence-pick-${r.revisionId}`}
                    checked={picked.has(r.revisionId)}
                    onChange={(e) => onPick(r, e.target.checked)}
                  />
                )}
              </td>
              <td>
                <StateBadge state={r.state} testId={`evidence-row-state-${r.revisionId}`} />
                <div className="small muted cut">{r.kind}</div>
              </td>
              <td className="title-cell">
                <div className="cut">
                  <InertLabel text={r.title} />
                </div>
                <code className="small muted cut">{r.revisionId}</code>
              </td>
              <td>
                <div className="cut">{r.sourceType}</div>
                <div className="muted small cut">{r.producer}</div>
              </td>
              {wide && (
                <td className="mono small">
                  {/* Date over time keeps the column narrow enough for the title to breathe. */}
                  <div>{date}</div>
                  <div>{time}</div>
                </td>
              )}
              {wide && (
                <td className="small">
                  <div className="cut">{r.tenant}</div>
                  <div className={`class-${r.classification}`}>{r.classification}</div>
                </td>
              )}
            </tr>
          );
        })}
        {w.padBottom > 0 && <tr aria-hidden="true" className="spacer" style={{ height: w.padBottom }} />}
        {rows.length === 0 && (
          <tr>
            <td colSpan={wide ? 6 : 4} className="muted" data-testid="evidence-empty">
              No visible revision matches these filters.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
