import type { ChainVerification, ReceiptView } from '../../../shared/ipc/channels/audit';
import type { Actor } from '../context';
import { aclFilter } from '../store/acl';
import type { CaseDb } from '../store/caseFile';

/**
 * Receipts name the claims and revisions they touched. A reviewer sees every receipt's place in
 * the chain (seq, chain hashes, signer) so chain status is never hidden, but the content of a
 * receipt about something outside their clearance is withheld: its targets, body, content digests
 * and state fingerprints (DESIGN §3.8: not in lists, not in errors).
 */
function hiddenTargets(db: CaseDb, actor: Actor, targets: readonly string[]): Set<string> {
  const ids = (prefix: string) => [...new Set(targets.filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length)))];
  const hidden = new Set<string>();
  const probe = (prefix: string, table: string, column: string, alias: string) => {
    const wanted = ids(prefix);
    // Stryker disable next-line ConditionalExpression: only saves a query; `IN ()` finds nothing
    if (wanted.length === 0) return;
    const acl = aclFilter(actor, alias);
    const seen = new Set(
      (db.prepare(`SELECT ${alias}.${column} AS id FROM ${table} ${alias} WHERE ${alias}.${column} IN (${wanted.map(() => '?').join(', ')}) AND ${acl.sql}`).all(...wanted, ...acl.params) as { id: string }[]).map((r) => r.id),
    );
    for (const id of wanted) if (!seen.has(id)) hidden.add(`${prefix}${id}`);
  };
  probe('revision:', 'evidence_revision', 'revision_id', 'r');
  probe('claim:', 'claim', 'claim_id', 'c');
  return hidden;
}

export function redactReceipts(db: CaseDb, actor: Actor, items: ReceiptView[]): ReceiptView[] {
  const hidden = hiddenTargets(db, actor, items.flatMap((r) => r.targets));
  // Stryker disable next-line ConditionalExpression: only saves copying the list; with nothing hidden each item maps to itself
  if (hidden.size === 0) return items;
  return items.map((r) =>
    r.targets.some((t) => hidden.has(t))
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
  const row = db.prepare('SELECT targets FROM audit_receipt WHERE seq = ?').get(v.firstBroken.seq) as { targets: string } | undefined;
  // Stryker disable next-line ArrayDeclaration: a placeholder target names nothing to withhold, like none
  let targets: string[] = [];
  try {
    // Stryker disable next-line ArrayDeclaration: as above
    targets = row ? (JSON.parse(row.targets) as string[]) : [];
  } catch {
    // A targets column that is not JSON (a tampered file) names nothing to withhold.
  }
  if (hiddenTargets(db, actor, targets).size === 0) return v;
  return {
    ...v,
    firstBroken: {
      ...v.firstBroken,
      reason: `the receipt at seq ${v.firstBroken.seq} concerns an item outside your clearance and does not verify (${v.firstBroken.kind}); an admin cleared for it, or cli verify, shows why`,
    },
  };
}
