import { EVIDENCE_KINDS, type EvidenceKind, type LifecycleState } from '../../../shared/domain/enums';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import type { EvidenceFilter } from '../../state/types';
import { countByState } from './filter';

/** State chips (with counts over all visible revisions), a kind picker and a text match. */
export function EvidenceFilters({
  evidence,
  filter,
  onChange,
}: {
  evidence: readonly RevisionSummary[];
  filter: EvidenceFilter;
  onChange: (patch: Partial<EvidenceFilter>) => void;
}) {
  const counts = countByState(evidence);
  const chip = (state: LifecycleState | 'ALL', label: string, count: number) => (
    <button
      key={state}
      type="button"
      className={`chip${filter.state === state ? ' active' : ''}${state === 'ALL' ? '' : ` state-${state}`}`}
      aria-pressed={filter.state === state}
      data-testid={`evidence-filter-state-${state}`}
      onClick={() => onChange({ state })}
    >
      {label} <span className="count">{count}</span>
    </button>
  );
  return (
    <div className="filters">
      <div className="row wrap" role="group" aria-label="Lifecycle state">
        {chip('ALL', 'All', evidence.length)}
        {counts.map(({ state, count }) => chip(state, state, count))}
      </div>
      <div className="row">
        <label className="field inline">
          Kind
          <select data-testid="evidence-filter-kind" value={filter.kind} onChange={(e) => onChange({ kind: e.target.value as EvidenceKind | 'ALL' })}>
            <option value="ALL">all kinds</option>
            {EVIDENCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <input
          className="grow"
          type="search"
          data-testid="evidence-filter-text"
          placeholder="Filter by id, title, source or producer"
          value={filter.text}
          onChange={(e) => onChange({ text: e.target.value })}
        />
      </div>
    </div>
  );
}
