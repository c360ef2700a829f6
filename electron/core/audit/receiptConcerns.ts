/**
 * What a receipt concerns, for deciding who may read what it says: the claims, revisions and
 * source documents it names. One rule for the workbench's redaction (redact.ts) and the team
 * server's row-level security (team/receiptScope.ts), so the two cannot drift apart.
 *
 * Mostly a receipt's targets; but finalizing a case records every claim's outcome in its body
 * under the case's one target, so the claims it lists are what it concerns too (a reader not
 * cleared for one of them must not read the others' verdicts either).
 */
export const SCOPED_ITEMS = [
  { prefix: 'revision:', table: 'evidence_revision', column: 'revision_id' },
  { prefix: 'claim:', table: 'claim', column: 'claim_id' },
  { prefix: 'source:', table: 'source_document', column: 'source_id' },
] as const;

export const isScopedItem = (ref: string): boolean => SCOPED_ITEMS.some((s) => ref.startsWith(s.prefix));

export function concernedItems(action: string, targets: readonly string[], body: () => unknown): string[] {
  const items = targets.filter(isScopedItem);
  if (action === 'case:finalize') {
    const claims = (body() as { claims?: unknown } | null)?.claims;
    // A finalize body that does not list its claims (a tampered file) concerns every claim: an
    // item that does not exist is withheld from everyone.
    if (!Array.isArray(claims)) return [...items, 'claim:\u0000unlisted'];
    for (const c of claims) {
      const id = (c as { claimId?: unknown } | null)?.claimId;
      items.push(typeof id === 'string' ? `claim:${id}` : 'claim:\u0000unlisted');
    }
  }
  return [...new Set(items)];
}
