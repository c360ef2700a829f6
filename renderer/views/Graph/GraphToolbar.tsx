import { useReactFlow } from '@xyflow/react';
import { RELATIONS } from '../../../shared/domain/enums';
import { RELATION_STYLE } from './relationStyle';

/**
 * Zoom and layout controls of our own, so each carries a test id and a plain-language label. They sit
 * above the canvas, not over it, so no node is ever hidden behind them.
 */
export function GraphToolbar({
  showUnbound,
  onShowUnbound,
  onFitWidth,
  undrawnBindings,
}: {
  showUnbound: boolean;
  onShowUnbound: (show: boolean) => void;
  onFitWidth: () => void;
  undrawnBindings: number;
}) {
  const flow = useReactFlow();
  return (
    <div className="graph-toolbar">
      <button type="button" className="secondary small" data-testid="graph-fit-width" onClick={onFitWidth}>
        Fit width
      </button>
      <button type="button" className="secondary small" data-testid="graph-fit-all" onClick={() => void flow.fitView({ padding: 0.05 })}>
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
      {undrawnBindings > 0 && (
        <span className="muted small" data-testid="graph-undrawn">
          {undrawnBindings} binding(s) to revisions not listed for you are not drawn
        </span>
      )}
    </div>
  );
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
