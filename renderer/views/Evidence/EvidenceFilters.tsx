import { useEffect, useState } from 'react';
import { EVIDENCE_KINDS, LIFECYCLE_STATES, type EvidenceKind, type LifecycleState } from '../../../shared/domain/enums';
import type { EvidenceCounts, EvidenceSort } from '../../../shared/ipc/channels/evidence';
import type { EvidenceFilter } from '../../state/types';

const SORTS: { value: EvidenceSort; label: string }[] = [
  { value: 'revision', label: 'revision id' },
  { value: 'observed-desc', label: 'observed, newest first' },
  { value: 'observed-asc', label: 'observed, oldest first' },
  { value: 'state', label: 'lifecycle state' },
];
/** Typing pauses this long before the queue is read again. */
const TEXT_SETTLE_MS = 250;

/**
 * State chips with the store's counts (each state's, under the kind and text filters), a kind
 * picker, a text match and the order; the counts are of the whole case, not of the rows read.
 */
export function EvidenceFilters({ counts, filter, onChange }: { counts: EvidenceCounts | null; filter: EvidenceFilter; onChange: (patch: Partial<EvidenceFilter>) => void }) {
  const [text, setText] = useState(filter.text);
  // A filter recalled for another case replaces what is typed here.
  useEffect(() => setText(filter.text), [filter.text]);
  useEffect(() => {
    if (text === filter.text) return;
    const timer = setTimeout(() => onChange({ text }), TEXT_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text, filter.text, onChange]);

  const all = counts ? LIFECYCLE_STATES.reduce((sum, s) => sum + counts.byState[s], 0) : null;
  const chip = (state: LifecycleState | 'ALL', label: string, count: number | null) => (
    <button
      key={state}
      type="button"
      className={`chip${filter.state === state ? ' active' : ''}${state === 'ALL' ? '' : ` state-${state}`}`}
      aria-pressed={filter.state === state}
      data-testid={`evidence-filter-state-${state}`}
      onClick={() => onChange({ state })}
    >
      {label} <span className="count">{count ?? '…'}</span>
    </button>
  );
  return (
    <div className="filters">
      <div className="row wrap" role="group" aria-label="Lifecycle state">
        {chip('ALL', 'All', all)}
        {LIFECYCLE_STATES.map((state) => chip(state, state, counts ? counts.byState[state] : null))}
      </div>
      <div className="row wrap">
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
        <label className="field inline">
          Order
          <select data-testid="evidence-sort" value={filter.sort} onChange={(e) => onChange({ sort: e.target.value as EvidenceSort })}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <input
          className="grow"
          type="search"
          aria-label="Filter by id, title, source or producer"
          data-testid="evidence-filter-text"
          placeholder="Filter by id, title, source or producer"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
    </div>
  );
}
