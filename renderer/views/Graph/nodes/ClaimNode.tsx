import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { DecisionStateBadge, ProjectionBadge, StatusBadge } from '../../../components/Badges';
import type { ClaimFlowNode } from '../toFlow';
import { InertLabel } from '../../../components/InertLabel';
import { ExpandStub } from './ExpandStub';
import { useCompact } from './zoomLevel';

/**
 * A claim: statement, derived status and independent vs. all support and refutation; beside them,
 * what a reviewer must not miss: a projection other than ELIGIBLE (pending revalidation right after
 * a revoke) and where the review stands (a stale decision above all).
 */
export const ClaimNode = memo(function ClaimNode({ data, selected }: NodeProps<ClaimFlowNode>) {
  const showProjection = data.projection !== null && (data.projection !== 'ELIGIBLE' || data.pendingRevalidation);
  const showDecision = data.decisionState !== null && data.decisionState !== 'UNDECIDED';
  const compact = useCompact();
  const classes = `flow-node claim-node status-border-${data.status}${selected ? ' is-selected' : ''}${data.dimmed ? ' is-dimmed' : ''}${data.pendingRevalidation ? ' is-pending' : ''}`;
  if (compact) {
    // Zoomed out: the status, large enough to read, and the id (the statement is in the tooltip).
    return (
      <div className={`${classes} is-compact`} data-testid={`graph-node-claim-${data.claimId}`} title={data.statement}>
        <StatusBadge status={data.status} testId={`graph-claim-status-${data.claimId}`} />
        <code className="compact-id">{data.claimId}</code>
        <Handle type="target" position={Position.Right} isConnectable />
      </div>
    );
  }
  return (
    <div className={classes} data-testid={`graph-node-claim-${data.claimId}`}>
      <div className="row spread">
        <code className="small">{data.claimId}</code>
        <span className="row">
          <ExpandStub node={`claim:${data.claimId}`} hidden={data.hidden} />
          <StatusBadge status={data.status} testId={`graph-claim-status-${data.claimId}`} />
        </span>
      </div>
      <p className="claim-statement" title={data.statement}>
        <InertLabel text={data.statement} />
      </p>
      {(showProjection || showDecision) && (
        <div className="claim-flags">
          {showProjection && <ProjectionBadge projection={data.projection!} testId={`graph-claim-projection-${data.claimId}`} />}
          {showDecision && (
            <DecisionStateBadge state={data.decisionState!} verdict={data.decisionState === 'DECIDED' ? data.verdict : null} testId={`graph-claim-decision-${data.claimId}`} />
          )}
        </div>
      )}
      <div className="support-counts" data-testid={`graph-claim-support-${data.claimId}`}>
        <span title="full support: |I_c| independent sources / |E_c| all FULL_SUPPORT revisions (only this counts toward the policy)">
          full <b>{data.support.independent}</b>/{data.support.all}
        </span>
        <span title="partial support: independent sources / all PARTIAL_SUPPORT revisions (never makes a claim SUPPORTED)">
          partial <b>{data.partialSupport.independent}</b>/{data.partialSupport.all}
        </span>
        <span title="refutation: independent sources / all REFUTES revisions">
          refute <b>{data.refute.independent}</b>/{data.refute.all}
        </span>
      </div>
      {data.missingKinds.length > 0 && <div className="missing small">missing kind: {data.missingKinds.join(', ')}</div>}
      <Handle type="target" position={Position.Right} isConnectable />
    </div>
  );
});
