import { BINDING_ROLES, CLAIM_STATUSES, EVIDENCE_KINDS, LIFECYCLE_STATES, RELATIONS } from '../../shared/domain/enums';
import type { BindingView, ClaimSummary, RevisionSummary } from '../../shared/domain/schemas';
import type { ResponseOf } from '../../shared/ipc/contract';
import { seededRandom } from '../../electron/testing/seededRandom';

/** The bench's graph (issue 11): 1,000 claims, 4,000 evidence revisions, 10,000 bindings. */
export const GRAPH_SIZE = { claims: 1_000, revisions: 4_000, bindings: 10_000 } as const;

export type GraphNeighbourhood = ResponseOf<'graph:neighbourhood'>;

const WORDS = ['beacon', 'lateral', 'movement', 'credential', 'dump', 'registry', 'persistence', 'exfiltration', 'staging', 'host', 'proxy', 'token', 'service', 'account', 'payload', 'loader'];

/**
 * The same neighbourhood on every call, in the shape graph:neighbourhood answers: each revision is
 * bound to one home claim (four a claim) and the remaining bindings join a revision to a further
 * claim, so many revisions serve several claims and edges cross between bands, as in a real case.
 * Pure (no DOM, no Node): the page hands it to the store, the build lays it out for the plain page.
 */
export function seedNeighbourhood(): GraphNeighbourhood {
  const random = seededRandom(11);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const phrase = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const pad = (i: number) => String(i).padStart(5, '0');

  const revisions: RevisionSummary[] = Array.from({ length: GRAPH_SIZE.revisions }, (_, i) => ({
    revisionId: `ev-${pad(i)}@1`,
    evidenceId: `ev-${pad(i)}`,
    revision: 1,
    title: `${phrase(6)} observed on host-${i % 97}`,
    kind: pick(EVIDENCE_KINDS),
    // Mostly usable evidence, with the fenced states a review case carries.
    state: random() < 0.8 ? 'VALIDATED' : pick(LIFECYCLE_STATES),
    tenant: 'acme',
    classification: 'internal',
    sourceType: 'edr',
    producer: 'bench',
    observedAt: '2026-03-01T10:00:00Z',
    contentSha256: pad(i).padEnd(64, '0'),
  }));

  const bindingsOf: BindingView[][] = Array.from({ length: GRAPH_SIZE.claims }, () => []);
  const bound = new Set<string>();
  let bindingId = 0;
  const bind = (claim: number, revision: number) => {
    const key = `${claim}/${revision}`;
    if (bound.has(key)) return false;
    bound.add(key);
    bindingsOf[claim]!.push({
      bindingId: ++bindingId,
      claimId: `cl-${pad(claim)}`,
      generation: 1,
      revisionId: revisions[revision]!.revisionId,
      relation: pick(RELATIONS),
      role: pick(BINDING_ROLES),
      rationale: phrase(8),
      createdBy: 'bench',
      createdAt: '2026-03-01T10:00:00Z',
    });
    return true;
  };
  const perClaim = GRAPH_SIZE.revisions / GRAPH_SIZE.claims;
  for (let r = 0; r < GRAPH_SIZE.revisions; r++) bind(Math.floor(r / perClaim), r);
  while (bindingId < GRAPH_SIZE.bindings) {
    const claim = Math.floor(random() * GRAPH_SIZE.claims);
    // Most further bindings stay near the claim's own band; some reach across the case.
    const near = Math.floor(claim * perClaim + (random() - 0.5) * 200);
    const revision = random() < 0.8 ? Math.min(GRAPH_SIZE.revisions - 1, Math.max(0, near)) : Math.floor(random() * GRAPH_SIZE.revisions);
    bind(claim, revision);
  }

  const count = () => {
    const all = Math.floor(random() * 5);
    return { all, independent: Math.floor(all / 2) };
  };
  const claims: ClaimSummary[] = bindingsOf.map((bindings, i) => ({
    claimId: `cl-${pad(i)}`,
    statement: `The ${phrase(10)} on host-${i % 97} is part of the intrusion`,
    generation: 1,
    status: pick(CLAIM_STATUSES),
    author: 'bench',
    support: count(),
    partialSupport: count(),
    refute: count(),
    projection: 'ELIGIBLE',
    pendingRevalidation: false,
    missingKinds: random() < 0.3 ? [pick(EVIDENCE_KINDS)] : [],
    bindings,
  }));

  const reviews = claims.map((c) => ({ claimId: c.claimId, decisionState: 'UNDECIDED' as const, verdict: null, quorumTier: null }));
  return { claims, reviews, revisions, hidden: {}, totalClaims: claims.length, claimsNotShown: 0, unboundNotShown: 0, disputes: null, pivot: null };
}
