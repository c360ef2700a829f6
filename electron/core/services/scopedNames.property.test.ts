import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import type { HomeScope } from '../../../shared/domain/schemas';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../../testing/testCase';
import { canSee } from '../store/acl';
import { scopeQualifier } from './scopedNames';

/**
 * Issue 9.7: creating an item under a chosen name must answer a reviewer the same whether that
 * name is free or taken somewhere they cannot see. Each run builds two cases that look the same
 * to one reviewer: the first holds everything the scenario creates, the twin only what was created
 * there within that reviewer's sight. The reviewer then creates an item under a name from the same small pool in
 * both, and must get the same answer from each: the same id, or the same error, word for word.
 */

const TENANTS = ['acme', 'globex', 'Initech Ltd'] as const;
const NAMES = ['n1', 'n2', 'n3'] as const;
const KINDS = ['evidence', 'claim', 'source'] as const;
type Kind = (typeof KINDS)[number];
type Scope = { tenant: string; classification: Classification };

const clearance = fc.record({
  tenants: fc.oneof(fc.constant<string[]>(['*']), fc.uniqueArray(fc.constantFrom<string>(...TENANTS), { minLength: 1, maxLength: 3 })),
  maxClassification: fc.constantFrom(...CLASSIFICATIONS),
});
const scope = fc.record({ tenant: fc.constantFrom<string>(...TENANTS), classification: fc.constantFrom(...CLASSIFICATIONS) });
const creation = fc.record({ kind: fc.constantFrom(...KINDS), name: fc.constantFrom(...NAMES), scope, by: fc.nat({ max: 2 }) });
const scenario = fc.record({
  home: fc.record({
    tenants: fc.oneof(fc.constant<string[]>(['*']), fc.uniqueArray(fc.constantFrom<string>(...TENANTS), { minLength: 1, maxLength: 2 })),
    maxClassification: fc.constantFrom(...CLASSIFICATIONS),
  }),
  /** Three reviewers who create things: r0 sees the whole case, r1 is random, r2 is the one probing. */
  creators: fc.tuple(clearance, clearance).map(([r1, r2]) => [{ tenants: ['*'], maxClassification: 'restricted' as const }, r1, r2]),
  /** The first creation takes the probe's name in a random scope; the rest add noise. */
  taker: scope,
  creations: fc.array(creation, { maxLength: 5 }),
  probe: fc.record({ kind: fc.constantFrom(...KINDS), name: fc.constantFrom(...NAMES), scope }),
});

const within = (who: { tenants: string[]; maxClassification: Classification }, s: Scope) => canSee(who, s);

async function create(tc: TestCase, kind: Kind, name: string, s: Scope, content: string): Promise<string> {
  const answer =
    kind === 'evidence'
      ? await tc.raw('evidence:ingest', ingestRequest(name, { content, context: s }))
      : kind === 'claim'
        ? await tc.raw('claim:create', { claimId: name, statement: content, tenant: s.tenant, classification: s.classification })
        : await tc.raw('source:add', { sourceId: name, title: `source ${name}`, content, tenant: s.tenant, classification: s.classification });
  if (!answer.ok) return `${answer.error.code}: ${answer.error.message}`;
  const v = answer.value as { revisionId?: string; claimId?: string; sourceId?: string };
  return `created ${v.revisionId ?? v.claimId ?? v.sourceId}`;
}

/** Every name a scenario id can take: bare, and qualified with each scope. */
const candidateIds = (name: string): string[] => [
  name,
  ...TENANTS.flatMap((tenant) => CLASSIFICATIONS.map((classification) => `${name}~${scopeQualifier({ tenant, classification })}`)),
];

async function readsOf(tc: TestCase): Promise<unknown[]> {
  const answer = async (channel: string, request: unknown) => {
    const a = await tc.raw(channel, request);
    return a.ok ? a.value : `${a.error.code}: ${a.error.message}`;
  };
  const info = (await answer('case:info', {})) as Record<string, unknown>;
  const out: unknown[] = [info.claimCount, info.evidenceCount];
  out.push(await answer('evidence:list', { limit: 200 }), await answer('claim:list', {}), await answer('source:list', {}));
  out.push(await answer('search:query', { q: 'item', limit: 100 }), await answer('search:query', { q: 'n1', limit: 100 }));
  for (const name of NAMES) {
    for (const id of candidateIds(name)) {
      out.push(await answer('evidence:get', { revisionId: `${id}@1` }), await answer('claim:get', { claimId: id }), await answer('source:get', { sourceId: id }));
    }
  }
  return out;
}

async function buildCase(home: HomeScope, creators: { tenants: string[]; maxClassification: Classification }[]): Promise<TestCase> {
  const tc = await createTestCase({ homeScope: home, now: () => '2026-12-01T10:00:00.000Z' });
  for (const [i, c] of creators.entries()) {
    await tc.call('actor:create', { actorId: `r${i}`, displayName: `Reviewer ${i}`, role: 'reviewer', ...c, passphrase: TEST_PASSPHRASE });
  }
  return tc;
}

describe('a chosen name answers alike whether it is free or taken where you cannot look (issue 9.7)', () => {
  it('evidence:ingest, claim:create and source:add give the probing reviewer the same answer in a case and its twin without what they cannot see', async () => {
    let probes = 0;
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const prober = s.creators[2]!;
        fc.pre(within(prober, s.probe.scope));
        const full = await buildCase(s.home, s.creators);
        const twin = await buildCase(s.home, s.creators);
        try {
          const creations = [{ kind: s.probe.kind, name: s.probe.name, scope: s.taker, by: 0 }, ...s.creations];
          for (const [i, c] of creations.entries()) {
            const by = s.creators[c.by]!;
            if (!within(by, c.scope)) continue;
            full.as(`r${c.by}`);
            const made = await create(full, c.kind, c.name, c.scope, `item ${i} from the scenario`);
            // The twin holds what the prober could see of the full case: what was made there in sight.
            if (!made.startsWith('created') || !within(prober, c.scope)) continue;
            twin.as(`r${c.by}`);
            expect(await create(twin, c.kind, c.name, c.scope, `item ${i} from the scenario`)).toBe(made);
          }
          full.as('r2');
          twin.as('r2');
          const content = 'the probing reviewer’s own item';
          const inFull = await create(full, s.probe.kind, s.probe.name, s.probe.scope, content);
          const inTwin = await create(twin, s.probe.kind, s.probe.name, s.probe.scope, content);
          probes++;
          if (creations.some((c) => c.kind === s.probe.kind && c.name === s.probe.name && !within(prober, c.scope))) taken++;
          expect(inFull).toBe(inTwin);
          // And nothing the prober can read tells the two apart: lists, counts, search, and the
          // answer (or error, word for word) for every id any scenario name could have become.
          expect(await readsOf(full)).toEqual(await readsOf(twin));
        } finally {
          full.cleanup();
          twin.cleanup();
        }
      }),
      { numRuns: 60 },
    );
    // The runs must have tried names taken out of the prober's sight, or the property said nothing.
    expect(probes).toBeGreaterThan(20);
    expect(taken).toBeGreaterThan(10);
  }, 240_000);
});
