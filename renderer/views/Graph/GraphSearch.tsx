import { useId, useState } from 'react';
import type { SearchHit } from '../../../shared/ipc/channels/search';
import { InertLabel } from '../../components/InertLabel';
import { useCaseSearch } from '../../components/useCaseSearch';

/**
 * Find a claim or an evidence item anywhere in the case (search:query, within your clearance) and
 * open the graph on it. Typing waits for a pause; a later answer replaces an earlier one.
 */
export function GraphSearch({ onOpen }: { onOpen: (hit: SearchHit) => void }) {
  const [q, setQ] = useState('');
  const { hits, error } = useCaseSearch(q, 8, 200);
  const listId = useId();

  const open = (hit: SearchHit) => {
    onOpen(hit);
    setQ('');
  };
  return (
    <div className="graph-search">
      <input
        type="search"
        data-testid="graph-search"
        aria-label="Find a claim or evidence in the case"
        aria-controls={(hits || error) && q.trim().length >= 2 ? listId : undefined}
        placeholder="Find claim or evidence…"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && hits?.items[0]) open(hits.items[0]);
          if (e.key === 'Escape') setQ('');
        }}
      />
      {(hits || error) && q.trim().length >= 2 && (
        <ul className="graph-search-hits plain" id={listId} data-testid="graph-search-hits">
          {error && <li className="error small">Search failed: {error}</li>}
          {hits?.items.length === 0 && <li className="muted small">Nothing visible to you matches “{hits.q}”.</li>}
          {hits?.items.map((hit) => (
            <li key={`${hit.kind}:${hit.id}`}>
              <button type="button" className="list-button" data-testid={`graph-search-hit-${hit.id}`} onClick={() => open(hit)}>
                <span className="tag">{hit.kind}</span> <code className="small">{hit.id}</code> <InertLabel text={hit.title} />
              </button>
            </li>
          ))}
          {hits && hits.total > hits.items.length && <li className="muted small">{hits.total - hits.items.length} more: type more words to narrow.</li>}
        </ul>
      )}
    </div>
  );
}
