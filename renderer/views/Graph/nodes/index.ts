import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { BindingEdge } from './BindingEdge';
import { ClaimNode } from './ClaimNode';
import { EvidenceNode } from './EvidenceNode';
import { LaneNode } from './LaneNode';

// Module-level constants: React Flow re-mounts every node when these objects change identity.
export const nodeTypes: NodeTypes = { claim: ClaimNode, evidence: EvidenceNode, lane: LaneNode };
export const edgeTypes: EdgeTypes = { binding: BindingEdge };
export { RelationMarkers } from './BindingEdge';
