import { canonicalJson } from './canonical';

/**
 * Body of a reviewer decision's fingerprint (DESIGN §3.4). The SHA-256 over this string is taken in
 * Node; keeping the body here lets the renderer, the host and the CLI agree on it byte for byte.
 * A decision whose stored fingerprint differs from the one recomputed now is stale: the claim moved
 * to a new generation, or the exact evidence or computations behind it changed.
 */
export interface DecisionFingerprintInput {
  claimId: string;
  generation: number;
  verdict: string;
  /** Exact evidence revision refs, e.g. `ev-12@3`. Order and duplicates are irrelevant. */
  evidenceRefs: readonly string[];
  computationRefs?: readonly string[];
}

export function decisionFingerprintBody(input: DecisionFingerprintInput): string {
  if (!Number.isSafeInteger(input.generation) || input.generation < 0) {
    throw new RangeError(`decisionFingerprintBody: generation must be a non-negative integer, got ${input.generation}`);
  }
  return canonicalJson({
    claim: { id: input.claimId, generation: input.generation },
    verdict: input.verdict,
    evidence: sortedUnique(input.evidenceRefs),
    computations: sortedUnique(input.computationRefs ?? []),
  });
}

// Default sort compares UTF-16 code units, the same order canonicalJson uses for keys; locale-free.
function sortedUnique(refs: readonly string[]): string[] {
  return [...new Set(refs)].sort();
}
