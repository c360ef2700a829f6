import type { BindingRole, Relation } from '../../../shared/domain/enums';
import type { BindingView } from '../../../shared/domain/schemas';

/** Row shape of claim_binding; claims, projections, history and remediation views all read this. */
export interface BindingRow {
  binding_id: number;
  claim_id: string;
  generation: number;
  revision_id: string;
  relation: Relation;
  role: BindingRole;
  rationale: string;
  created_by: string;
  created_at: string;
}

export const toBindingView = (b: BindingRow): BindingView => ({
  bindingId: b.binding_id,
  claimId: b.claim_id,
  generation: b.generation,
  revisionId: b.revision_id,
  relation: b.relation,
  role: b.role,
  rationale: b.rationale,
  createdBy: b.created_by,
  createdAt: b.created_at,
});
