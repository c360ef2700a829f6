import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import { concernedItems, SCOPED_ITEMS } from '../audit/receiptConcerns';
import { parseOr } from '../audit/receiptViews';
import type { CaseDb } from '../store/caseFile';

/**
 * What a receipt concerns, for the team server's row-level security: the tenants and the highest
 * classification of the claims, revisions and source documents it concerns (receiptConcerns.ts).
 * A reader may see what the receipt says only when every one of those items is within their
 * clearance, which is the workbench's own redaction rule (redact.ts) restated as data the server
 * can filter on; team.test.ts holds the two equal reviewer by reviewer. A target the case does not hold (the workbench withholds
 * such a receipt from everyone) makes the scope unknown.
 */
export interface ReceiptScope {
  tenants: string[];
  rank: number;
  unknown: boolean;
}

export const classificationRank = (c: Classification): number => CLASSIFICATIONS.indexOf(c);

const CHUNK = 500;

/** The scope of each receipt (as stored: canonical JSON targets and body), in the order given. */
export function receiptScopes(db: CaseDb, receipts: readonly { action: string; targets: string; body: string }[]): ReceiptScope[] {
  const concerns = receipts.map((r) => {
    const list = parseOr<unknown>(r.targets, null);
    // A targets text that is not a list of strings cannot be scoped: nobody but the owner reads it.
    if (!Array.isArray(list) || !list.every((t) => typeof t === 'string')) return null;
    return concernedItems(r.action, list, () => parseOr<unknown>(r.body, null));
  });
  const known = new Map<string, { tenant: string; classification: Classification }>();
  for (const { prefix, table, column } of SCOPED_ITEMS) {
    const ids = [...new Set(concerns.flatMap((items) => (items ?? []).filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length))))];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const rows = db
        .prepare(`SELECT ${column} AS id, tenant, classification FROM ${table} WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`)
        .all(...chunk) as { id: string; tenant: string; classification: Classification }[];
      for (const r of rows) known.set(`${prefix}${r.id}`, { tenant: r.tenant, classification: r.classification });
    }
  }
  return concerns.map((items) => {
    if (items === null) return { tenants: [], rank: CLASSIFICATIONS.length - 1, unknown: true };
    const tenants = new Set<string>();
    let rank = 0;
    let unknown = false;
    for (const ref of items) {
      const item = known.get(ref);
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
