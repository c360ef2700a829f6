import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { BINDING_ROLES, EVIDENCE_KINDS, EVIDENCE_STRENGTH, RELATIONS, type EvidenceKind } from './enums';
import { ClaimPolicySchema, deriveClaimStatus, type ClaimPolicy, type StatusBinding } from './claimStatus';

let seq = 0;
function b(partial: Partial<StatusBinding> & Pick<StatusBinding, 'relation'>): StatusBinding {
  seq += 1;
  return {
    revisionRef: `ev-${seq}@1`,
    role: 'SUPPORTING',
    kind: 'telemetry',
    usable: true,
    independenceGroup: null,
    originalSources: [`src-${seq}`],
    ...partial,
  };
}
const policy = (p: Partial<ClaimPolicy> = {}): ClaimPolicy => ({
  minIndependentSources: 1,
  requiredKinds: [],
  quorumSize: null,
  ...p,
});
const derive = (bindings: StatusBinding[], p: Partial<ClaimPolicy> = {}, unresolvedByReviewer = false) =>
  deriveClaimStatus({ bindings, policy: policy(p), unresolvedByReviewer });

describe('ClaimPolicySchema', () => {
  it('defaults to min 1, no required kinds, no quorum', () => {
    expect(ClaimPolicySchema.parse({})).toEqual({ minIndependentSources: 1, requiredKinds: [], quorumSize: null });
  });

  it.each([
    ['min 0', { minIndependentSources: 0 }],
    ['fractional min', { minIndependentSources: 1.5 }],
    ['unknown kind', { requiredKinds: ['rumour'] }],
    ['quorum 0', { quorumSize: 0 }],
    ['typo in a field name', { minIndependentSource: 2 }],
  ])('rejects %s', (_l, value) => {
    expect(ClaimPolicySchema.safeParse(value).success).toBe(false);
  });

  it('parses into the ClaimPolicy shape', () => {
    // The type check holds at compile time (tsc); at run time, the parsed value must be one too.
    expectTypeOf<z.infer<typeof ClaimPolicySchema>>().toExtend<ClaimPolicy>();
    const parsed: ClaimPolicy = ClaimPolicySchema.parse({ requiredKinds: ['telemetry'], quorumSize: 3 });
    expect(Object.keys(parsed).sort()).toEqual(['minIndependentSources', 'quorumSize', 'requiredKinds']);
    expect(parsed).toEqual({ minIndependentSources: 1, requiredKinds: ['telemetry'], quorumSize: 3 });
  });
});

describe('deriveClaimStatus: scenarios', () => {
  it('no evidence is INSUFFICIENT', () => {
    const r = derive([]);
    expect(r.status).toBe('INSUFFICIENT');
    expect(r.reasons).toEqual(['needs 1 independent source, has 0']);
  });

  it('one usable full support from strong evidence is SUPPORTED', () => {
    const r = derive([b({ relation: 'FULL_SUPPORT' })]);
    expect(r).toMatchObject({ status: 'SUPPORTED', support: { all: 1, independent: 1 }, refute: { all: 0, independent: 0 } });
  });

  it('three copies of one source against one refutation is MIXED, never SUPPORTED', () => {
    const copies = [1, 2, 3].map(() => b({ relation: 'FULL_SUPPORT', originalSources: ['pastebin/abc'] }));
    const r = derive([...copies, b({ relation: 'REFUTES' })]);
    expect(r.status).toBe('MIXED');
    expect(r.support).toEqual({ all: 3, independent: 1 });
    expect(r.reasons[0]).toBe(
      'usable support (3 bindings from 1 independent source) and usable refutation (1 independent source) both present; a reviewer must resolve the dispute',
    );
  });

  it('copies collapse before they are compared with the policy', () => {
    const copies = [1, 2, 3].map(() => b({ relation: 'FULL_SUPPORT', originalSources: ['vendor-blog'] }));
    const r = derive(copies, { minIndependentSources: 2 });
    expect(r.status).toBe('INSUFFICIENT');
    expect(r.reasons).toEqual(['needs 2 independent sources, has 1 (3 bindings collapse to 1 source)']);
  });

  it('a shared independence group also collapses', () => {
    const r = derive(
      [b({ relation: 'FULL_SUPPORT', independenceGroup: 'edr-1' }), b({ relation: 'FULL_SUPPORT', independenceGroup: 'edr-1' })],
      { minIndependentSources: 2 },
    );
    expect(r.status).toBe('INSUFFICIENT');
  });

  it('two independent sources meet a policy of two', () => {
    expect(derive([b({ relation: 'FULL_SUPPORT' }), b({ relation: 'FULL_SUPPORT', kind: 'log_record' })], { minIndependentSources: 2 }).status).toBe(
      'SUPPORTED',
    );
  });

  it('refutation without support is REFUTED', () => {
    const r = derive([b({ relation: 'REFUTES' }), b({ relation: 'CONTEXT_ONLY' })]);
    expect(r.status).toBe('REFUTED');
    expect(r.reasons).toEqual(['refuted by 1 independent source; no usable support']);
  });

  it('partial support alone is INSUFFICIENT, but it does make a refutation MIXED', () => {
    const partial = b({ relation: 'PARTIAL_SUPPORT' });
    const r = derive([partial]);
    expect(r.status).toBe('INSUFFICIENT');
    expect(r.reasons).toEqual(['needs 1 independent source, has 0; partial support does not count toward this']);
    expect(derive([partial, b({ relation: 'REFUTES' })]).status).toBe('MIXED');
  });

  it('self-reports never count, for or against', () => {
    const self = b({ relation: 'FULL_SUPPORT', kind: 'self_report', revisionRef: 'ev-self@1' });
    const r = derive([self]);
    expect(r.status).toBe('INSUFFICIENT');
    expect(r.reasons).toContain('ev-self@1 (self_report) is reference only and never counts as evidence');
    expect(derive([b({ relation: 'FULL_SUPPORT' }), b({ relation: 'REFUTES', kind: 'self_report' })]).status).toBe('SUPPORTED');
  });

  it('says why each relation that would count was not counted, and only for those relations', () => {
    const r = derive([
      b({ relation: 'FULL_SUPPORT' }),
      b({ relation: 'PARTIAL_SUPPORT', kind: 'self_report', revisionRef: 'ev-partial@1' }),
      b({ relation: 'REFUTES', kind: 'self_report', revisionRef: 'ev-against@1' }),
      b({ relation: 'CONTEXT_ONLY', kind: 'self_report', revisionRef: 'ev-context@1' }),
    ]);
    expect(r.status).toBe('SUPPORTED');
    expect(r.reasons.filter((x) => x.includes('reference only'))).toEqual([
      'ev-against@1 (self_report) is reference only and never counts as evidence',
      'ev-partial@1 (self_report) is reference only and never counts as evidence',
    ]);
  });

  it('an agent summary counts only through its original sources', () => {
    const orphan = b({ relation: 'FULL_SUPPORT', kind: 'agent_summary', originalSources: [], revisionRef: 'ev-sum@2' });
    const r = derive([orphan]);
    expect(r.status).toBe('INSUFFICIENT');
    expect(r.reasons).toContain('ev-sum@2 (agent_summary) traces to no original source and does not count');

    const traced = b({ relation: 'FULL_SUPPORT', kind: 'agent_summary', originalSources: ['evtx-DC01'] });
    expect(derive([traced]).status).toBe('SUPPORTED');
    const log = b({ relation: 'FULL_SUPPORT', kind: 'log_record', originalSources: ['evtx-DC01'] });
    expect(derive([traced, log], { minIndependentSources: 2 }).support).toEqual({ all: 2, independent: 1 });
  });

  it('names every missing required kind', () => {
    const r = derive([b({ relation: 'FULL_SUPPORT' })], { requiredKinds: ['forensic_artifact', 'log_record'] });
    expect(r.status).toBe('INSUFFICIENT');
    expect(r.missingKinds).toEqual(['forensic_artifact', 'log_record']);
    expect(r.reasons).toEqual([
      'required evidence kind forensic_artifact missing',
      'required evidence kind log_record missing',
    ]);
  });

  it('a required kind may be present through partial support', () => {
    const r = derive([b({ relation: 'FULL_SUPPORT' }), b({ relation: 'PARTIAL_SUPPORT', kind: 'forensic_artifact' })], {
      requiredKinds: ['forensic_artifact'],
    });
    expect(r).toMatchObject({ status: 'SUPPORTED', missingKinds: [] });
  });

  it('a required kind is not present through an unusable or non-supporting binding', () => {
    const r = derive(
      [
        b({ relation: 'FULL_SUPPORT' }),
        b({ relation: 'FULL_SUPPORT', kind: 'forensic_artifact', usable: false }),
        b({ relation: 'CONTEXT_ONLY', kind: 'forensic_artifact' }),
      ],
      { requiredKinds: ['forensic_artifact'] },
    );
    expect(r.missingKinds).toEqual(['forensic_artifact']);
  });

  it('unusable refutation does not count', () => {
    expect(derive([b({ relation: 'FULL_SUPPORT' }), b({ relation: 'REFUTES', usable: false })]).status).toBe('SUPPORTED');
  });

  it('a reviewer’s UNRESOLVED overrides everything', () => {
    const r = derive([b({ relation: 'FULL_SUPPORT' })], {}, true);
    expect(r.status).toBe('UNRESOLVED');
    expect(r.reasons).toEqual(['a reviewer recorded that this claim cannot be decided']);
    expect(r.support).toEqual({ all: 1, independent: 1 });
  });

  it('a policy minimum below one is treated as one', () => {
    expect(derive([], { minIndependentSources: 0 }).status).toBe('INSUFFICIENT');
  });

  it.each(['CONTEXT_ONLY', 'IRRELEVANT', 'UNKNOWN'] as const)('%s never counts', (relation) => {
    expect(derive([b({ relation })]).status).toBe('INSUFFICIENT');
    expect(derive([b({ relation }), b({ relation: 'REFUTES' })]).status).toBe('REFUTED');
  });
});

describe('deriveClaimStatus: properties', () => {
  const binding: fc.Arbitrary<StatusBinding> = fc.record({
    revisionRef: fc.integer({ min: 0, max: 15 }).map((i) => `ev-${i}@1`),
    relation: fc.constantFrom(...RELATIONS),
    role: fc.constantFrom(...BINDING_ROLES),
    kind: fc.constantFrom(...EVIDENCE_KINDS),
    usable: fc.boolean(),
    independenceGroup: fc.option(fc.constantFrom('g1', 'g2', 'g3')),
    originalSources: fc.array(fc.constantFrom('s1', 's2', 's3', 's4', 's5'), { maxLength: 2 }),
  });
  const bindings = fc.array(binding, { maxLength: 10 });
  const anyPolicy: fc.Arbitrary<ClaimPolicy> = fc.record({
    minIndependentSources: fc.integer({ min: 0, max: 4 }),
    requiredKinds: fc.array(fc.constantFrom<EvidenceKind>(...EVIDENCE_KINDS), { maxLength: 2 }),
    quorumSize: fc.option(fc.integer({ min: 1, max: 5 })),
  });
  const input = fc.record({ bindings, policy: anyPolicy, unresolvedByReviewer: fc.boolean() });

  const counts = (x: StatusBinding): boolean =>
    x.usable &&
    EVIDENCE_STRENGTH[x.kind] !== 'reference_only' &&
    !(EVIDENCE_STRENGTH[x.kind] === 'derived' && x.originalSources.length === 0);

  it('(a) never SUPPORTED without a usable FULL_SUPPORT that counts as evidence', () => {
    fc.assert(
      fc.property(input, (i) => {
        const hasHard = i.bindings.some((x) => counts(x) && x.relation === 'FULL_SUPPORT');
        if (!hasHard) expect(deriveClaimStatus(i).status).not.toBe('SUPPORTED');
      }),
      { numRuns: 1000 },
    );
  });

  it('(b) adding or removing unusable bindings never changes the result', () => {
    const unusable = binding.map((x) => ({ ...x, usable: false }));
    fc.assert(
      fc.property(input, fc.array(fc.tuple(fc.nat(), unusable), { maxLength: 5 }), (i, extras) => {
        const base = deriveClaimStatus({ ...i, bindings: i.bindings.filter((x) => x.usable) });
        const mixed = [...i.bindings];
        for (const [at, x] of extras) mixed.splice(at % (mixed.length + 1), 0, x);
        expect(deriveClaimStatus({ ...i, bindings: mixed })).toEqual(base);
      }),
      { numRuns: 1000 },
    );
  });

  it('(c) independent ≤ all, for support and refutation', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = deriveClaimStatus(i);
        expect(r.support.independent).toBeLessThanOrEqual(r.support.all);
        expect(r.refute.independent).toBeLessThanOrEqual(r.refute.all);
      }),
    );
  });

  it('no majority vote: counted support and counted refutation together are always MIXED', () => {
    fc.assert(
      fc.property(input, (i) => {
        const sup = i.bindings.some((x) => counts(x) && (x.relation === 'FULL_SUPPORT' || x.relation === 'PARTIAL_SUPPORT'));
        const ref = i.bindings.some((x) => counts(x) && x.relation === 'REFUTES');
        const status = deriveClaimStatus(i).status;
        if (i.unresolvedByReviewer) expect(status).toBe('UNRESOLVED');
        else if (sup && ref) expect(status).toBe('MIXED');
        else if (ref) expect(status).toBe('REFUTED');
        else expect(['SUPPORTED', 'INSUFFICIENT']).toContain(status);
      }),
      { numRuns: 1000 },
    );
  });

  it('SUPPORTED implies the policy is met; INSUFFICIENT always says why', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = deriveClaimStatus(i);
        if (r.status === 'SUPPORTED') {
          expect(r.support.independent).toBeGreaterThanOrEqual(Math.max(1, i.policy.minIndependentSources));
          expect(r.missingKinds).toEqual([]);
        }
        if (r.status === 'INSUFFICIENT') expect(r.reasons.length).toBeGreaterThan(0);
      }),
    );
  });

  it('does not depend on binding order', () => {
    const withPermutation = input.chain((i) =>
      fc.tuple(fc.constant(i), fc.shuffledSubarray([...i.bindings], { minLength: i.bindings.length, maxLength: i.bindings.length })),
    );
    fc.assert(
      fc.property(withPermutation, ([i, shuffled]) => {
        expect(deriveClaimStatus({ ...i, bindings: shuffled })).toEqual(deriveClaimStatus(i));
      }),
    );
  });
});
