import type { ChainVerification, ReceiptView } from '../../../shared/ipc/channels/audit';
import type { Actor } from '../context';
import { aclFilter } from '../store/acl';
import { concernedItems, SCOPED_ITEMS } from './receiptConcerns';
import { parseOr } from './receiptViews';
import type { CaseDb } from '../store/caseFile';

/**
 * Receipts name the claims, revisions and source documents they concern (receiptConcerns.ts). A reviewer sees every receipt's place in
 * the chain (seq, chain hashes, signer) so chain status is never hidden, but the content of a
 * receipt about something outside their clearance is withheld: its targets, body, content digests
 * and state fingerprints (DESIGN §3.8: not in lists, not in errors).
 */
function hiddenItems(db: CaseDb, actor: Actor, refs: readonly string[]): Set<string> {
  const hidden = new Set<string>();
  for (const { prefix, table, column } of SCOPED_ITEMS) {
    const wanted = [...new Set(refs.filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length)))];
    // Stryker disable next-line ConditionalExpression: only saves a query; `IN ()` finds nothing
    if (wanted.length === 0) continue;
    const acl = aclFilter(actor, 'x');
    const seen = new Set(
      (db.prepare(`SELECT x.${column} AS id FROM ${table} x WHERE x.${column} IN (${wanted.map(() => '?').join(', ')}) AND ${acl.sql}`).all(...wanted, ...acl.params) as { id: string }[]).map((r) => r.id),
    );
    for (const id of wanted) if (!seen.has(id)) hidden.add(`${prefix}${id}`);
  }
  return hidden;
}

export function redactReceipts(db: CaseDb, actor: Actor, items: ReceiptView[]): ReceiptView[] {
  const concerns = items.map((r) => concernedItems(r.action, r.targets, () => r.body));
  const hidden = hiddenItems(db, actor, concerns.flat());
  // Stryker disable next-line ConditionalExpression: only saves copying the list; with nothing hidden each item maps to itself
  if (hidden.size === 0) return items;
  return items.map((r, i) =>
    concerns[i]!.some((t) => hidden.has(t))
      ? {
          ...r,
          targets: ['hidden'],
          body: { withheld: 'this receipt concerns evidence or a claim outside your clearance' },
          // Content digests and state fingerprints describe the hidden item (a content hash can be
          // matched against a guess): withheld too. The chain fields stay, so chain status is visible.
          artifacts: {},
          preStateFp: null,
          postStateFp: null,
        }
      : r,
  );
}

export function redactVerification(db: CaseDb, actor: Actor, v: ChainVerification): ChainVerification {
  if (!v.firstBroken) return v;
  const row = db.prepare('SELECT action, targets, body FROM audit_receipt WHERE seq = ?').get(v.firstBroken.seq) as { action: string; targets: string; body: string } | undefined;
  // A break past the last receipt (a truncated tail, a row no receipt names) has no receipt to withhold.
  if (!row) return v;
  // A targets or body column that is not JSON (a tampered file) names nothing to withhold.
  const targets = parseOr<unknown>(row.targets, null);
  // Stryker disable next-line ArrayDeclaration: equivalent; concernedItems passes over any target that names no scoped item
  const concerns = concernedItems(row.action, Array.isArray(targets) ? targets.filter((t): t is string => typeof t === 'string') : [], () => parseOr<unknown>(row.body, null));
  if (hiddenItems(db, actor, concerns).size === 0) return v;
  return {
    ...v,
    firstBroken: {
      ...v.firstBroken,
      reason: `the receipt at seq ${v.firstBroken.seq} concerns an item outside your clearance and does not verify (${v.firstBroken.kind}); an admin cleared for it, or cli verify, shows why`,
    },
  };
}
