import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { StateBadge } from '../../../components/Badges';
import type { EvidenceFlowNode } from '../toFlow';
import { InertLabel } from '../../../components/InertLabel';
import { ExpandStub } from './ExpandStub';
import { useCompact } from './zoomLevel';

/** An exact evidence revision: lifecycle state, kind and how much its kind can carry. */
export const EvidenceNode = memo(function EvidenceNode({ data, selected }: NodeProps<EvidenceFlowNode>) {
  const compact = useCompact();
  const classes = `flow-node evidence-node node-state-${data.state}${selected ? ' is-selected' : ''}${data.dimmed ? ' is-dimmed' : ''}`;
  if (compact) {
    return (
      <div className={`${classes} is-compact`} data-testid={`graph-node-rev-${data.revisionId}`} title={data.title}>
        <Handle type="source" position={Position.Left} isConnectable />
        <StateBadge state={data.state} testId={`graph-rev-state-${data.revisionId}`} />
        <code className="compact-id">{data.revisionId}</code>
      </div>
    );
  }
  return (
    <div className={classes} data-testid={`graph-node-rev-${data.revisionId}`}>
      <Handle type="source" position={Position.Left} isConnectable title="Drag onto a claim to bind this revision" />
      <div className="row spread">
        <code className="small">{data.revisionId}</code>
        <StateBadge state={data.state} testId={`graph-rev-state-${data.revisionId}`} />
      </div>
      <div className="evidence-title" title={data.title}>
        <InertLabel text={data.title} />
      </div>
      <div className="row small muted">
        <span>{data.kind}</span>
        <span className={`tag strength-${data.strength}`}>{data.strength.replace('_', ' ')}</span>
        {data.claimCount > 1 && <span title="bound to several claims">× {data.claimCount} claims</span>}
        <ExpandStub node={`rev:${data.revisionId}`} hidden={data.hidden} />
      </div>
    </div>
  );
});
