import { useReactFlow } from '@xyflow/react';
import { RELATIONS } from '../../../shared/domain/enums';
import type { SearchHit } from '../../../shared/ipc/channels/search';
import { GRAPH_LIMITS } from '../../state/graphSlice';
import type { GraphFocus, GraphLimit, GraphNeighbourhood } from '../../state/types';
import { GraphSearch } from './GraphSearch';
import { RELATION_STYLE } from './relationStyle';

/**
 * Zoom and layout controls of our own, so each carries a test id and a plain-language label. They sit
 * above the canvas, not over it, so no node is ever hidden behind them.
 */
export function GraphToolbar({
  showUnbound,
  onShowUnbound,
  showMap,
  onShowMap,
  onFitWidth,
  onFitAll,
  limit,
  onLimit,
  undrawnBindings,
}: {
  showUnbound: boolean;
  onShowUnbound: (show: boolean) => void;
  showMap: boolean;
  onShowMap: (show: boolean) => void;
  onFitWidth: () => void;
  onFitAll: () => void;
  limit: GraphLimit;
  onLimit: (limit: GraphLimit) => void;
  undrawnBindings: number;
}) {
  const flow = useReactFlow();
  return (
    <div className="graph-toolbar">
      <button type="button" className="secondary small" data-testid="graph-fit-width" onClick={onFitWidth}>
        Fit width
      </button>
      <button type="button" className="secondary small" data-testid="graph-fit-all" onClick={onFitAll}>
        Fit all
      </button>
      <button type="button" className="secondary small" data-testid="graph-zoom-in" aria-label="Zoom in" onClick={() => void flow.zoomIn()}>
        +
      </button>
      <button type="button" className="secondary small" data-testid="graph-zoom-out" aria-label="Zoom out" onClick={() => void flow.zoomOut()}>
        −
      </button>
      <label className="check">
        <input type="checkbox" data-testid="graph-show-unbound" checked={showUnbound} onChange={(e) => onShowUnbound(e.target.checked)} />
        Show evidence bound to no claim
      </label>
      <label className="check">
        Draw at most
        <select data-testid="graph-limit" value={limit} onChange={(e) => onLimit(Number(e.target.value) as GraphLimit)}>
          {GRAPH_LIMITS.map((n) => (
            <option key={n} value={n}>
              {n.toLocaleString('en')} nodes
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" data-testid="graph-show-map" checked={showMap} onChange={(e) => onShowMap(e.target.checked)} />
        Overview map
      </label>
      {undrawnBindings > 0 && (
        <span className="muted small" data-testid="graph-undrawn">
          {undrawnBindings} binding(s) to evidence not drawn: “+n” on a claim shows it
        </span>
      )}
    </div>
  );
}

const focusLabel = (f: GraphFocus): string =>
  f.kind === 'case' ? 'Case' : f.kind === 'disputes' ? 'Disputes' : f.kind === 'source' ? `same source as ${f.id}` : f.kind === 'group' ? `same group as ${f.id}` : f.id;

/**
 * Where the graph stands and how it got there: the trail of foci (each one a way back), what the
 * neighbourhood left out, and a read that failed, with a retry (never an empty graph that looks
 * like an empty case).
 */
export function GraphTrail({
  trail,
  graph,
  error,
  loading,
  onBack,
  onRetry,
  onOpen,
  onDisputes,
}: {
  trail: readonly GraphFocus[];
  graph: GraphNeighbourhood | null;
  error: string | null;
  loading: boolean;
  onBack: (index: number) => void;
  onRetry: () => void;
  onOpen: (hit: SearchHit) => void;
  onDisputes: () => void;
}) {
  return (
    <div className="graph-trail">
      <nav aria-label="Graph focus trail" className="crumbs" data-testid="graph-trail">
        {trail.map((f, i) =>
          i === trail.length - 1 ? (
            <span key={i} aria-current="location" className="crumb current" data-testid={`graph-crumb-${i}`}>
              {focusLabel(f)}
            </span>
          ) : (
            <span key={i}>
              <button type="button" className="link crumb" data-testid={`graph-crumb-${i}`} onClick={() => onBack(i)}>
                {focusLabel(f)}
              </button>
              <span aria-hidden="true"> › </span>
            </span>
          ),
        )}
      </nav>
      <GraphSearch onOpen={onOpen} />
      <button type="button" className="secondary small" data-testid="graph-focus-disputes" onClick={onDisputes}>
        Disputes
      </button>
      <span className="muted small" data-testid="graph-extent" aria-live="polite">
        {loading && !graph ? 'Reading the neighbourhood…' : graph ? extent(graph) : ''}
      </span>
      {error && (
        <span className="error-notice inline" role="alert" data-testid="graph-error">
          The graph could not be read: {error}{' '}
          <button type="button" className="secondary small" data-testid="graph-retry" onClick={onRetry}>
            Retry
          </button>
        </span>
      )}
    </div>
  );
}

function extent(g: GraphNeighbourhood): string {
  const disputes = g.disputes ? `${g.disputes.total} item(s) in dispute${g.disputes.notShown > 0 ? `, ${g.disputes.notShown} not drawn` : ''}; ` : '';
  const pivot = g.pivot ? `${g.pivot.total} revision(s) share ${g.pivot.by === 'source' ? 'the source' : 'the group'} ${g.pivot.value ?? '(none)'}${g.pivot.notShown > 0 ? `, ${g.pivot.notShown} not drawn` : ''}; ` : '';
  const shown = `${disputes}${pivot}${g.claims.length} of ${g.totalClaims} claim(s), ${g.revisions.length} evidence revision(s)`;
  return g.claimsNotShown > 0 ? `${shown}; double-click a node or search to move on` : shown;
}

export function GraphLegend() {
  return (
    <div className="graph-legend" data-testid="graph-legend">
      {RELATIONS.map((r) => {
        const look = RELATION_STYLE[r];
        return (
          <span key={r} className="legend-item">
            <svg width="28" height="8" aria-hidden="true">
              <line x1="0" y1="4" x2="28" y2="4" stroke={look.color} strokeWidth={look.width + 0.4} strokeDasharray={look.dash} />
            </svg>
            {look.label}
          </span>
        );
      })}
    </div>
  );
}
