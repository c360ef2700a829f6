import type { NodeProps } from '@xyflow/react';
import type { LaneFlowNode } from '../toFlow';

export function LaneNode({ data }: NodeProps<LaneFlowNode>) {
  return <div className="lane-node">{data.label}</div>;
}
