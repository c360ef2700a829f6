import type { StatusBinding } from '../../../shared/domain/claimStatus';
import type { BindingRole, EvidenceKind, Relation } from '../../../shared/domain/enums';
import type { ServiceContext } from '../context';
import { probableCopiesAmong } from '../store/copyRows';
import { originalSourceKeys } from './provenance';

/** The bound revision columns claim status derivation reads besides usability. */
export interface StatusColumns {
  revision_id: string;
  relation: Relation;
  role: BindingRole;
  kind: EvidenceKind;
  independence_group: string | null;
  source_ref: string;
}

/**
 * Claim status inputs for a set of bindings (DESIGN §3.3): each with the original sources it
 * traces to (PROV, as `ctx.actor` may see them) and the probable copies among the set. Both the
 * claim's status and its support projection are derived from these, so they cannot disagree.
 */
export function statusBindings(ctx: ServiceContext, rows: readonly (StatusColumns & { usable: boolean })[]): StatusBinding[] {
  const copies = probableCopiesAmong(ctx.db, [...new Set(rows.map((r) => r.revision_id))]);
  return rows.map((r) => ({
    revisionRef: r.revision_id,
    relation: r.relation,
    role: r.role,
    kind: r.kind,
    usable: r.usable,
    independenceGroup: r.independence_group,
    originalSources: originalSourceKeys(ctx, r),
    copies: copies.get(r.revision_id) ?? [],
  }));
}
