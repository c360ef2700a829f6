import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASSIFICATIONS, LIFECYCLE_STATES, type Classification } from './enums';
import {
  CLASSIFICATION_RANK,
  USABILITY_CONJUNCTS,
  isAuthorized,
  usability,
  type Clearance,
  type UsabilityConjunct,
  type UsabilityContext,
  type UsabilityInput,
} from './usable';

const NOW = '2024-05-01T12:00:00Z';

const good: UsabilityInput = {
  state: 'VALIDATED',
  tenant: 'acme',
  classification: 'internal',
  effectiveFrom: '2024-04-01T00:00:00Z',
  validUntil: '2024-06-01T00:00:00Z',
  appliesTo: ['svc-backup', 'DC01'],
};
const ctx: UsabilityContext = {
  clearance: { tenants: ['acme'], maxClassification: 'confidential' },
  now: NOW,
  scope: ['svc-backup'],
};

function failing(e: UsabilityInput, c: UsabilityContext = ctx): UsabilityConjunct[] {
  return usability(e, c).reasons.map((r) => r.conjunct);
}

describe('CLASSIFICATION_RANK', () => {
  it('orders public < internal < confidential < restricted', () => {
    expect(CLASSIFICATIONS.map((c) => CLASSIFICATION_RANK[c])).toEqual([0, 1, 2, 3]);
  });
});

describe('isAuthorized', () => {
  const cl = (tenants: string[], maxClassification: Classification): Clearance => ({ tenants, maxClassification });
  it.each<[string, Clearance, string, Classification, boolean]>([
    ['same tenant, lower class', cl(['acme'], 'confidential'), 'acme', 'internal', true],
    ['same tenant, equal class', cl(['acme'], 'confidential'), 'acme', 'confidential', true],
    ['same tenant, higher class', cl(['acme'], 'confidential'), 'acme', 'restricted', false],
    ['other tenant', cl(['acme'], 'restricted'), 'globex', 'public', false],
    ['wildcard tenant', cl(['*'], 'internal'), 'globex', 'internal', true],
    ['wildcard does not lift class', cl(['*'], 'internal'), 'globex', 'confidential', false],
    ['no tenants', cl([], 'restricted'), 'acme', 'public', false],
    ['tenant match is exact', cl(['ACME'], 'restricted'), 'acme', 'public', false],
    ['"*" as an evidence tenant is not special', cl(['acme'], 'restricted'), '*', 'public', false],
  ])('%s', (_l, clearance, tenant, classification, expected) => {
    expect(isAuthorized(clearance, { tenant, classification })).toBe(expected);
  });
});

describe('usability: each conjunct', () => {
  it('a fully good revision is usable with no reasons', () => {
    expect(usability(good, ctx)).toEqual({ usable: true, reasons: [] });
  });

  it.each(LIFECYCLE_STATES.filter((s) => s !== 'VALIDATED'))('%s is not usable', (state) => {
    expect(usability({ ...good, state }, ctx).reasons).toEqual([
      { conjunct: 'VALIDATED', message: `revision is ${state}, not VALIDATED` },
    ]);
  });

  it('reports tenant and classification failures under one AUTHORIZED reason', () => {
    const r = usability({ ...good, tenant: 'globex', classification: 'restricted' }, ctx);
    expect(r.reasons).toEqual([
      {
        conjunct: 'AUTHORIZED',
        message: 'tenant globex is outside clearance (tenants: acme); classification restricted exceeds clearance confidential',
      },
    ]);
  });

  it.each<[string, string | null, string | null, string | null]>([
    ['open interval', null, null, null],
    ['effective exactly now', NOW, null, null],
    ['effective later', '2024-05-01T12:00:01Z', null, 'not yet effective (effective from 2024-05-01T12:00:01Z)'],
    ['valid until a moment later', null, '2024-05-01T12:00:01Z', null],
    ['valid until exactly now (exclusive)', null, NOW, `expired at ${NOW}`],
    ['expired', null, '2024-05-01T00:00:00Z', 'expired at 2024-05-01T00:00:00Z'],
    ['offset timestamps compare as instants', '2024-05-01T13:00:00+02:00', null, null],
    ['garbage effective_from fails closed', 'yesterday', null, 'effective_from is not a valid timestamp: yesterday'],
    ['garbage valid_until fails closed', null, 'soon', 'valid_until is not a valid timestamp: soon'],
  ])('FRESH: %s', (_l, effectiveFrom, validUntil, message) => {
    const r = usability({ ...good, effectiveFrom, validUntil }, ctx);
    expect(r.reasons).toEqual(message === null ? [] : [{ conjunct: 'FRESH', message }]);
  });

  it('FRESH reports both bounds when the window is inverted and the clock is outside it', () => {
    const r = usability({ ...good, effectiveFrom: '2024-07-01T00:00:00Z', validUntil: '2024-02-01T00:00:00Z' }, ctx);
    expect(r.reasons).toEqual([
      { conjunct: 'FRESH', message: 'not yet effective (effective from 2024-07-01T00:00:00Z); expired at 2024-02-01T00:00:00Z' },
    ]);
  });

  it.each<[string, string[], string[], boolean]>([
    ['empty scope means any', [], ['DC01'], true],
    ['wildcard applies everywhere', ['svc-backup'], ['*'], true],
    ['intersection', ['svc-backup', 'WS-01'], ['ws-01'], true],
    ['case-insensitive', ['SVC-BACKUP'], ['svc-backup'], true],
    ['disjoint', ['svc-backup'], ['DC01'], false],
    ['no applies_to and a scope', ['svc-backup'], [], false],
  ])('APPLICABLE: %s', (_l, scope, appliesTo, ok) => {
    expect(failing({ ...good, appliesTo }, { ...ctx, scope })).toEqual(ok ? [] : ['APPLICABLE']);
  });

  it('APPLICABLE message names both sides', () => {
    expect(usability({ ...good, appliesTo: ['DC01'] }, ctx).reasons[0]?.message).toBe(
      'applies to DC01; none of the claim scope svc-backup',
    );
  });

  it('NOT_FENCED: a fence blocks an otherwise usable revision; false/undefined do not', () => {
    expect(usability({ ...good, fenced: true }, ctx).reasons).toEqual([
      { conjunct: 'NOT_FENCED', message: 'fenced pending revalidation after a related revoke' },
    ]);
    expect(failing({ ...good, fenced: false })).toEqual([]);
  });

  it('reports all failing conjuncts, in a stable order', () => {
    const bad: UsabilityInput = {
      state: 'DISPUTED',
      tenant: 'globex',
      classification: 'public',
      effectiveFrom: null,
      validUntil: '2020-01-01T00:00:00Z',
      appliesTo: ['DC02'],
      fenced: true,
    };
    expect(failing(bad)).toEqual(['VALIDATED', 'AUTHORIZED', 'FRESH', 'APPLICABLE', 'NOT_FENCED']);
  });

  it('refuses an invalid clock instead of guessing', () => {
    expect(() => usability(good, { ...ctx, now: 'not a date' })).toThrow(RangeError);
  });
});

describe('usability: properties', () => {
  const tenants = fc.constantFrom('acme', 'globex', 'initech');
  const assets = fc.constantFrom('svc-backup', 'SVC-BACKUP', 'dc01', 'DC01', 'ws-7', '*');
  const day = fc.integer({ min: 0, max: 60 }).map((d) => new Date(Date.UTC(2024, 3, 1) + d * 86_400_000).toISOString());
  const input: fc.Arbitrary<UsabilityInput> = fc.record({
    state: fc.constantFrom(...LIFECYCLE_STATES),
    tenant: tenants,
    classification: fc.constantFrom(...CLASSIFICATIONS),
    effectiveFrom: fc.option(day),
    validUntil: fc.option(day),
    appliesTo: fc.array(assets, { maxLength: 3 }),
    fenced: fc.option(fc.boolean(), { nil: undefined }),
  });
  const context: fc.Arbitrary<UsabilityContext> = fc.record({
    clearance: fc.record({
      tenants: fc.array(fc.oneof(tenants, fc.constant('*')), { maxLength: 3 }),
      maxClassification: fc.constantFrom(...CLASSIFICATIONS),
    }),
    now: day,
    scope: fc.array(assets.filter((a) => a !== '*'), { maxLength: 2 }),
  });

  // Stated independently of the implementation, straight from DESIGN §3.1 and the brief.
  function expectedFailures(e: UsabilityInput, c: UsabilityContext): Set<UsabilityConjunct> {
    const now = Date.parse(c.now);
    const out = new Set<UsabilityConjunct>();
    if (e.state !== 'VALIDATED') out.add('VALIDATED');
    const tenantOk = c.clearance.tenants.some((t) => t === '*' || t === e.tenant);
    if (!tenantOk || CLASSIFICATIONS.indexOf(e.classification) > CLASSIFICATIONS.indexOf(c.clearance.maxClassification)) {
      out.add('AUTHORIZED');
    }
    const started = e.effectiveFrom === null || Date.parse(e.effectiveFrom) <= now;
    const notExpired = e.validUntil === null || Date.parse(e.validUntil) > now;
    if (!started || !notExpired) out.add('FRESH');
    const lower = new Set(c.scope.map((s) => s.toLowerCase()));
    const applies = c.scope.length === 0 || e.appliesTo.some((a) => a === '*' || lower.has(a.toLowerCase()));
    if (!applies) out.add('APPLICABLE');
    if (e.fenced === true) out.add('NOT_FENCED');
    return out;
  }

  it('usable iff every conjunct holds, and the reasons are exactly the failing conjuncts', () => {
    fc.assert(
      fc.property(input, context, (e, c) => {
        const r = usability(e, c);
        const expected = expectedFailures(e, c);
        expect(new Set(r.reasons.map((x) => x.conjunct))).toEqual(expected);
        expect(r.reasons).toHaveLength(expected.size);
        expect(r.usable).toBe(expected.size === 0);
        for (const reason of r.reasons) expect(reason.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('reasons follow the fixed conjunct order', () => {
    fc.assert(
      fc.property(input, context, (e, c) => {
        const order = usability(e, c).reasons.map((r) => USABILITY_CONJUNCTS.indexOf(r.conjunct));
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
    );
  });

  it('AUTHORIZED failure coincides with isAuthorized', () => {
    fc.assert(
      fc.property(input, context, (e, c) => {
        expect(failing(e, c).includes('AUTHORIZED')).toBe(!isAuthorized(c.clearance, e));
      }),
    );
  });
});

describe('usability: what the reasons say (an analyst reads them; issue 13 survivors)', () => {
  it.each([
    ['a tenant outside a clearance with several tenants', { ...good, tenant: 'globex' }, { ...ctx, clearance: { tenants: ['acme', 'initech'], maxClassification: 'confidential' } }, 'AUTHORIZED', 'tenant globex is outside clearance (tenants: acme, initech)'],
    ['a clearance with no tenant at all', good, { ...ctx, clearance: { tenants: [], maxClassification: 'confidential' } }, 'AUTHORIZED', 'tenant acme is outside clearance (tenants: none)'],
    ['no recorded applicability', { ...good, appliesTo: [] }, { ...ctx, scope: ['svc-backup', 'HOST-FS01'] }, 'APPLICABLE', 'no applicability scope recorded; claim scope is svc-backup, HOST-FS01'],
    ['an applicability outside the claim scope', { ...good, appliesTo: ['DC01', 'DC02'] }, { ...ctx, scope: ['svc-backup', 'HOST-FS01'] }, 'APPLICABLE', 'applies to DC01, DC02; none of the claim scope svc-backup, HOST-FS01'],
  ] as const)('%s', (_label, e, c, conjunct, message) => {
    expect(usability(e, c).reasons).toEqual([{ conjunct, message }]);
  });

  it('a clock that is not a timestamp is refused, naming what it got', () => {
    expect(() => usability(good, { ...ctx, now: 'tomorrow' })).toThrow('usability: now is not an ISO-8601 timestamp: "tomorrow"');
  });
});
