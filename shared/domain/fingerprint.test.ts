import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionFingerprintBody, type DecisionFingerprintInput } from './fingerprint';

const base: DecisionFingerprintInput = {
  claimId: 'claim-7',
  generation: 3,
  verdict: 'SUPPORTED',
  evidenceRefs: ['ev-12@3', 'ev-2@1'],
  computationRefs: ['corr-1'],
};

describe('decisionFingerprintBody', () => {
  it('refuses a generation that is not a non-negative integer, saying which', () => {
    for (const generation of [-1, 1.5, Number.NaN]) {
      expect(() => decisionFingerprintBody({ ...base, generation })).toThrow(new RangeError(`decisionFingerprintBody: generation must be a non-negative integer, got ${generation}`));
    }
  });

  it('is canonical JSON of claim, verdict, sorted evidence and computations', () => {
    expect(decisionFingerprintBody(base)).toBe(
      '{"claim":{"generation":3,"id":"claim-7"},"computations":["corr-1"],"evidence":["ev-12@3","ev-2@1"],"verdict":"SUPPORTED"}',
    );
  });

  it('treats missing computations as none', () => {
    const { computationRefs: _omit, ...noComputations } = base;
    expect(decisionFingerprintBody(noComputations)).toBe(decisionFingerprintBody({ ...base, computationRefs: [] }));
    expect(decisionFingerprintBody(noComputations)).toContain('"computations":[]');
  });

  it('ignores order and duplicates of refs', () => {
    expect(
      decisionFingerprintBody({ ...base, evidenceRefs: ['ev-2@1', 'ev-12@3', 'ev-2@1'], computationRefs: ['corr-1', 'corr-1'] }),
    ).toBe(decisionFingerprintBody(base));
  });

  it.each<[string, Partial<DecisionFingerprintInput>]>([
    ['claim id', { claimId: 'claim-8' }],
    ['generation', { generation: 4 }],
    ['verdict', { verdict: 'REFUTED' }],
    ['an evidence revision (same lineage, newer revision)', { evidenceRefs: ['ev-12@4', 'ev-2@1'] }],
    ['an added evidence ref', { evidenceRefs: ['ev-12@3', 'ev-2@1', 'ev-9@1'] }],
    ['a removed evidence ref', { evidenceRefs: ['ev-12@3'] }],
    ['a computation ref', { computationRefs: ['corr-2'] }],
  ])('changes when the %s changes', (_l, change) => {
    expect(decisionFingerprintBody({ ...base, ...change })).not.toBe(decisionFingerprintBody(base));
  });

  it('keeps evidence and computation refs apart', () => {
    expect(decisionFingerprintBody({ ...base, evidenceRefs: ['x'], computationRefs: [] })).not.toBe(
      decisionFingerprintBody({ ...base, evidenceRefs: [], computationRefs: ['x'] }),
    );
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('rejects generation %s', (generation) => {
    expect(() => decisionFingerprintBody({ ...base, generation })).toThrow(RangeError);
  });

  const refs = fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 6 });
  const input: fc.Arbitrary<DecisionFingerprintInput> = fc.record({
    claimId: fc.string({ maxLength: 8 }),
    generation: fc.nat(),
    verdict: fc.constantFrom('SUPPORTED', 'REFUTED', 'UNRESOLVED', 'NEEDS_MORE_EVIDENCE'),
    evidenceRefs: refs,
    computationRefs: refs,
  });

  it('is invariant under any permutation and duplication of refs', () => {
    const withVariant = input.chain((i) =>
      fc.tuple(
        fc.constant(i),
        fc.shuffledSubarray([...i.evidenceRefs, ...i.evidenceRefs], { minLength: i.evidenceRefs.length * 2 }),
        fc.shuffledSubarray([...(i.computationRefs ?? [])], { minLength: i.computationRefs?.length ?? 0 }),
      ),
    );
    fc.assert(
      fc.property(withVariant, ([i, evidenceRefs, computationRefs]) => {
        expect(decisionFingerprintBody({ ...i, evidenceRefs, computationRefs })).toBe(decisionFingerprintBody(i));
      }),
    );
  });

  it('equal bodies mean equal inputs up to ref order and duplicates', () => {
    const norm = (i: DecisionFingerprintInput) => ({
      ...i,
      evidenceRefs: [...new Set(i.evidenceRefs)].sort(),
      computationRefs: [...new Set(i.computationRefs ?? [])].sort(),
    });
    // Mix fields from two inputs so near-identical pairs, not just random strangers, are compared.
    const pair = fc
      .tuple(input, input, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }))
      .map(([a, o, take]) => {
        const b: DecisionFingerprintInput = {
          claimId: take[0] ? o.claimId : a.claimId,
          generation: take[1] ? o.generation : a.generation,
          verdict: take[2] ? o.verdict : a.verdict,
          evidenceRefs: take[3] ? o.evidenceRefs : [...a.evidenceRefs].reverse(),
          computationRefs: take[4] ? o.computationRefs : a.computationRefs,
        };
        return [a, b] as const;
      });
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(decisionFingerprintBody(a) === decisionFingerprintBody(b)).toBe(
          JSON.stringify(norm(a)) === JSON.stringify(norm(b)),
        );
      }),
    );
  });
});
