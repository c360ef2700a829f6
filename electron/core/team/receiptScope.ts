import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import type { CaseDb } from '../store/caseFile';

/**
 * What a receipt concerns, for the team server's row-level security: the tenants and the highest
 * classification of the claims and revisions it targets. A reader may see what the receipt says
 * only when every one of those items is within their clearance, which is the workbench's own
 * redaction rule (redact.ts) restated as data the server can filter on; team.rls.test.ts holds
 * the two equal reviewer by reviewer. A target the case does not hold (the workbench withholds
 * such a receipt from everyone) makes the scope unknown.
 */
export interface ReceiptScope {
  tenants: string[];
  rank: number;
  unknown: boolean;
}

export const classificationRank = (c: Classification): number => CLASSIFICATIONS.indexOf(c);

const SCOPED_TARGETS = [
  { prefix: 'revision:', table: 'evidence_revision', column: 'revision_id' },
  { prefix: 'claim:', table: 'claim', column: 'claim_id' },
] as const;

const CHUNK = 500;

/** The scope of each receipt's targets (canonical JSON arrays as stored), in the order given. */
export function receiptScopes(db: CaseDb, targetLists: readonly string[]): ReceiptScope[] {
  const parsed = targetLists.map((t) => {
    try {
      const list: unknown = JSON.parse(t);
      return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : null;
    } catch {
      return null;
    }
  });
  const known = new Map<string, { tenant: string; classification: Classification }>();
  for (const { prefix, table, column } of SCOPED_TARGETS) {
    const ids = [...new Set(parsed.flatMap((list) => (list ?? []).filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length))))];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const rows = db
        .prepare(`SELECT ${column} AS id, tenant, classification FROM ${table} WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`)
        .all(...chunk) as { id: string; tenant: string; classification: Classification }[];
      for (const r of rows) known.set(`${prefix}${r.id}`, { tenant: r.tenant, classification: r.classification });
    }
  }
  return parsed.map((list) => {
    // A targets text that is not a list of strings cannot be scoped: nobody but the owner reads it.
    if (list === null) return { tenants: [], rank: CLASSIFICATIONS.length - 1, unknown: true };
    const tenants = new Set<string>();
    let rank = 0;
    let unknown = false;
    for (const target of list) {
      if (!SCOPED_TARGETS.some((s) => target.startsWith(s.prefix))) continue;
      const item = known.get(target);
      if (!item) {
        unknown = true;
        continue;
      }
      tenants.add(item.tenant);
      rank = Math.max(rank, classificationRank(item.classification));
    }
    return { tenants: [...tenants].sort(), rank, unknown };
  });
}
