import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import { RELATION_STYLE } from '../relationStyle';
import type { BindingFlowEdge } from '../toFlow';
import { useCompact } from './zoomLevel';

/**
 * A claim–evidence binding. The label sits at the evidence end of the edge, not at its middle:
 * many edges converge on one claim, and middle labels would pile up there.
 */
export const BindingEdge = memo(function BindingEdge(props: EdgeProps<BindingFlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data } = props;
  const [path] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  // Zoomed out to badges, labels are too small to read and dashes cost more to draw than they
  // say: the edge keeps its relation's colour and arrowhead.
  const compact = useCompact();
  if (!data) return null;
  const look = RELATION_STYLE[data.relation];
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={`url(#arrow-${data.relation})`}
        style={{ stroke: look.color, strokeWidth: look.width, strokeDasharray: compact ? undefined : look.dash, opacity: data.dimmed ? 0.15 : 1 }}
      />
      {!compact && (
        <EdgeLabelRenderer>
          <div
            className={`edge-label rel-${data.relation}${data.dimmed ? ' is-dimmed' : ''}`}
            style={{ transform: `translate(-100%, -50%) translate(${sourceX - 10}px, ${sourceY}px)`, borderColor: look.color, color: look.color }}
            data-testid={`graph-edge-${data.revisionId}-${data.claimId}`}
            data-relation={data.relation}
            title={data.rationale}
          >
            {look.label} · {data.role.toLowerCase()}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});

/** Arrowheads, one per relation colour; rendered once inside the flow's SVG. */
export function RelationMarkers() {
  return (
    <svg className="relation-markers" aria-hidden="true">
      <defs>
        {Object.entries(RELATION_STYLE).map(([relation, look]) => (
          <marker key={relation} id={`arrow-${relation}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill={look.color} />
          </marker>
        ))}
      </defs>
    </svg>
  );
}
