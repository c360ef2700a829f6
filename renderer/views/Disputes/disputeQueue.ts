import type { ClaimSummary, BindingView, RevisionSummary } from '../../../shared/domain/schemas';
import type { DisputeKey } from '../../state/types';

/**
 * The dispute queue (DESIGN §1): claims whose usable evidence both supports and refutes them
 * (MIXED) and revisions a reviewer marked DISPUTED. The queue presents both sides; it never ranks a
 * side by how many items it has. Both are read a page at a time: the revisions follow the claims
 * once every MIXED claim has been read (`claimsComplete`), so rows never move under the reader.
 */
export type DisputeEntry =
  | { key: DisputeKey; kind: 'claim'; claim: ClaimSummary }
  | { key: DisputeKey; kind: 'revision'; revision: RevisionSummary };

export function disputeQueue(claims: readonly ClaimSummary[], evidence: readonly RevisionSummary[], claimsComplete = true): DisputeEntry[] {
  return [
    ...claims.filter((c) => c.status === 'MIXED').map((claim): DisputeEntry => ({ key: `claim:${claim.claimId}`, kind: 'claim', claim })),
    ...(claimsComplete ? evidence : [])
      .filter((r) => r.state === 'DISPUTED')
      .map((revision): DisputeEntry => ({ key: `revision:${revision.revisionId}`, kind: 'revision', revision })),
  ];
}

export interface ClaimSides {
  /** FULL_SUPPORT first, then PARTIAL_SUPPORT; each by revision id. */
  supporting: BindingView[];
  refuting: BindingView[];
  /** CONTEXT_ONLY, UNKNOWN and IRRELEVANT bindings: shown, but on neither side. */
  other: BindingView[];
}

const byRevision = (a: BindingView, b: BindingView) => (a.revisionId < b.revisionId ? -1 : a.revisionId > b.revisionId ? 1 : 0);

export function claimSides(bindings: readonly BindingView[]): ClaimSides {
  const of = (relation: BindingView['relation']) => bindings.filter((b) => b.relation === relation).sort(byRevision);
  return {
    supporting: [...of('FULL_SUPPORT'), ...of('PARTIAL_SUPPORT')],
    refuting: of('REFUTES'),
    other: [...of('CONTEXT_ONLY'), ...of('UNKNOWN'), ...of('IRRELEVANT')],
  };
}

/** The entry to show: the chosen one if it is still queued, else the first (queues change under us). */
export function currentEntry(queue: readonly DisputeEntry[], selected: DisputeKey | null): DisputeEntry | null {
  return queue.find((e) => e.key === selected) ?? queue[0] ?? null;
}
