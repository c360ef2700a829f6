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

/** What independence counting needs of a revision beyond its row (DESIGN §3.2, §3.11). */
export type IndependenceInputs = Pick<StatusBinding, 'originalSources' | 'copies'>;

/**
 * For each revision: the original sources it traces to (PROV, as `ctx.actor` may see them) and
 * its probable copies among `rows`. Both the claim's status and its support projection count
 * independence from these, so they cannot disagree.
 */
export function independenceInputs(ctx: Pick<ServiceContext, 'db' | 'actor'>, rows: readonly Pick<StatusColumns, 'revision_id' | 'kind' | 'source_ref'>[]): Map<string, IndependenceInputs> {
  const copies = probableCopiesAmong(ctx.db, [...new Set(rows.map((r) => r.revision_id))]);
  return new Map(rows.map((r) => [r.revision_id, { originalSources: originalSourceKeys(ctx, r), copies: copies.get(r.revision_id) ?? [] }]));
}

/** Claim status inputs for a set of bindings (DESIGN §3.3), as `ctx.actor` sees them. */
export function statusBindings(ctx: ServiceContext, rows: readonly (StatusColumns & { usable: boolean })[]): StatusBinding[] {
  const inputs = independenceInputs(ctx, rows);
  return rows.map((r) => ({
    revisionRef: r.revision_id,
    relation: r.relation,
    role: r.role,
    kind: r.kind,
    usable: r.usable,
    independenceGroup: r.independence_group,
    ...inputs.get(r.revision_id)!,
  }));
}
