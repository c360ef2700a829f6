import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { StatusBadge } from '../../../components/Badges';
import type { ClaimFlowNode } from '../toFlow';

/** A claim: statement, derived status and independent vs. all support and refutation. */
export const ClaimNode = memo(function ClaimNode({ data, selected }: NodeProps<ClaimFlowNode>) {
  return (
    <div
      className={`flow-node claim-node status-border-${data.status}${selected ? ' is-selected' : ''}${data.dimmed ? ' is-dimmed' : ''}`}
      data-testid={`graph-node-claim-${data.claimId}`}
    >
      <div className="row spread">
        <code className="small">{data.claimId}</code>
        <StatusBadge status={data.status} testId={`graph-claim-status-${data.claimId}`} />
      </div>
      <p className="claim-statement" title={data.statement}>
        {data.statement}
      </p>
      <div className="support-counts" data-testid={`graph-claim-support-${data.claimId}`}>
        <span title="|I_c| independent sources / |E_c| all supporting revisions">
          support <b>{data.support.independent}</b> indep. / {data.support.all} all
        </span>
        <span title="independent / all refuting revisions">
          refute <b>{data.refute.independent}</b> / {data.refute.all}
        </span>
      </div>
      {data.missingKinds.length > 0 && <div className="missing small">missing kind: {data.missingKinds.join(', ')}</div>}
      <Handle type="target" position={Position.Right} isConnectable={false} />
    </div>
  );
});
