import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { CAST } from '../../testing/reviewCase';
import { seededRandom } from '../../testing/seededRandom';
import { createTestCase, type TestCase } from '../../testing/testCase';

/**
 * graph:neighbourhood (issue 11.2): the graph view's only read. It must draw what claim:list and
 * the bindings say, within the limit, counting exactly what it left out, and never a node or a
 * count the reader may not see.
 *
 * The case: claims c0..c5; evidence e0..e9 bound in a fixed pattern (e0 to every claim, the
 * others to one or two), e10 and e11 bound to nothing, and one restricted revision (secret)
 * bound to c0 that faye, cleared only for internal material, must never see or count.
 */
let tc: TestCase;
const BOUND: Record<string, string[]> = {
  c0: ['e0', 'e1', 'e2', 'secret'],
  c1: ['e0', 'e2', 'e3'],
  c2: ['e0', 'e4'],
  c3: ['e0', 'e5', 'e6'],
  c4: ['e0', 'e7', 'e8'],
  c5: ['e0', 'e9'],
};
/** The restricted revision's id: outside the case's home scope, its name comes back qualified. */
let SECRET = '';
const rev = (e: string) => (e === 'secret' ? SECRET : `${e}@1`);

beforeAll(async () => {
  tc = await createTestCase();
  for (const actor of CAST) await tc.call('actor:create', actor);
  tc.as('alice');
  for (let i = 0; i < 12; i++) await tc.call('evidence:ingest', ingestRequest(`e${i}`));
  SECRET = (await tc.call('evidence:ingest', ingestRequest('secret', { context: { classification: 'restricted' } }))).revisionId;
  for (const [claimId, evidence] of Object.entries(BOUND)) {
    await tc.call('claim:create', { claimId, statement: `claim ${claimId}`, tenant: 'acme', classification: 'internal' });
    for (const e of evidence) await tc.call('claim:bind', { claimId, revisionId: rev(e), relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
  }
});
afterAll(() => tc.cleanup());

const ask = (request: RequestOf<'graph:neighbourhood'>, as = 'alice') => {
  tc.as(as);
  return tc.call('graph:neighbourhood', request);
};
const nodes = (g: ResponseOf<'graph:neighbourhood'>) => [...g.claims.map((c) => `claim:${c.claimId}`), ...g.revisions.map((r) => `rev:${r.revisionId}`)].sort();

/** The graph as the bindings define it, within `seen`: node → neighbours. */
function neighboursIn(seen: (e: string) => boolean): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const link = (a: string, b: string) => (out.get(a) ?? out.set(a, new Set()).get(a)!).add(b);
  for (const [claimId, evidence] of Object.entries(BOUND)) {
    for (const e of evidence.filter(seen)) {
      link(`claim:${claimId}`, `rev:${rev(e)}`);
      link(`rev:${rev(e)}`, `claim:${claimId}`);
    }
  }
  return out;
}

describe('graph:neighbourhood', () => {
  it('opens on the whole case when it fits: every claim and bound revision, as claim:list shows them, nothing hidden', async () => {
    const g = await ask({ focus: { kind: 'case' } });
    expect(g.claims).toEqual(await tc.call('claim:list', {}));
    expect(g.revisions.map((r) => r.revisionId).sort()).toEqual([...new Set(Object.values(BOUND).flat())].map(rev).sort());
    expect(g.hidden).toEqual({});
    expect([g.totalClaims, g.claimsNotShown, g.unboundNotShown]).toEqual([6, 0, 0]);
  });

  it('a claim with one hop is the claim and its evidence; each revision counts the other claims binding it', async () => {
    const g = await ask({ focus: { kind: 'claim', id: 'c1' } });
    expect(nodes(g)).toEqual(['claim:c1', 'rev:e0@1', 'rev:e2@1', 'rev:e3@1']);
    expect(g.hidden).toEqual({ 'rev:e0@1': 5, 'rev:e2@1': 1 });
    expect(g.claimsNotShown).toBe(5);
  });

  it('a revision with two hops reaches the evidence of the claims binding it; expanding a node adds its neighbours', async () => {
    const g = await ask({ focus: { kind: 'revision', id: 'e2@1' }, hops: 2 });
    expect(nodes(g)).toEqual(['claim:c0', 'claim:c1', 'rev:e0@1', 'rev:e1@1', 'rev:e2@1', 'rev:e3@1', `rev:${SECRET}`].sort());
    expect(g.hidden).toEqual({ 'rev:e0@1': 4 });
    const expanded = await ask({ focus: { kind: 'revision', id: 'e2@1' }, hops: 2, expand: ['rev:e0@1'] });
    expect(expanded.claims.map((c) => c.claimId)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(expanded.hidden).toEqual({ 'claim:c2': 1, 'claim:c3': 2, 'claim:c4': 2, 'claim:c5': 1 });
    // Expanding a node that is not drawn adds nothing: the view can only expand what it shows.
    expect(nodes(await ask({ focus: { kind: 'claim', id: 'c1' }, expand: ['claim:c4'] }))).toEqual(nodes(await ask({ focus: { kind: 'claim', id: 'c1' } })));
  });

  it('never draws or counts what the reader may not see, and a hidden focus answers like a missing one', async () => {
    const g = await ask({ focus: { kind: 'claim', id: 'c0' } }, 'faye');
    expect(nodes(g)).toEqual(['claim:c0', 'rev:e0@1', 'rev:e1@1', 'rev:e2@1']);
    expect(g.hidden).toEqual({ 'rev:e0@1': 5, 'rev:e2@1': 1 });
    const hidden = await tc.refusal('graph:neighbourhood', { focus: { kind: 'revision', id: SECRET } });
    const missing = await tc.refusal('graph:neighbourhood', { focus: { kind: 'revision', id: 'nothing@1' } });
    expect(hidden.code).toBe('NOT_FOUND');
    expect(hidden.message.replace(SECRET, 'X')).toBe(missing.message.replace('nothing@1', 'X'));
  });

  it('evidence bound to no claim comes only when asked, counted when the view leaves it out', async () => {
    const g = await ask({ focus: { kind: 'claim', id: 'c5' }, unbound: true });
    expect(nodes(g)).toEqual(['claim:c5', 'rev:e0@1', 'rev:e10@1', 'rev:e11@1', 'rev:e9@1']);
    expect(g.unboundNotShown).toBe(0);
    // Faye cannot see the restricted revision, so for her nothing more is unbound.
    tc.as('alice');
    await tc.call('claim:unbind', { claimId: 'c0', revisionId: SECRET, reason: 'not needed' });
    expect((await ask({ focus: { kind: 'claim', id: 'c5' }, unbound: true })).revisions.map((r) => r.revisionId)).toContain(SECRET);
    expect((await ask({ focus: { kind: 'claim', id: 'c5' }, unbound: true }, 'faye')).revisions.map((r) => r.revisionId)).not.toContain(SECRET);
    tc.as('alice');
    await tc.call('claim:bind', { claimId: 'c0', revisionId: SECRET, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
  });

  it('pivots from a revision to every revision sharing its source, then their claims; an item with no group pivots to itself', async () => {
    const g = await ask({ focus: { kind: 'source', id: 'e3@1' } });
    const everyRevision = [...Array.from({ length: 12 }, (_, i) => `e${i}@1`), SECRET];
    expect(g.revisions.map((r) => r.revisionId).sort()).toEqual(everyRevision.sort());
    expect(g.claims.map((c) => c.claimId)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(g.pivot).toEqual({ by: 'source', value: 'mde:alert:1', total: 13, notShown: 0 });
    // Within faye's clearance the restricted revision is neither drawn nor counted.
    const hers = await ask({ focus: { kind: 'source', id: 'e3@1' } }, 'faye');
    expect(hers.revisions.map((r) => r.revisionId)).not.toContain(SECRET);
    expect(hers.pivot).toMatchObject({ total: 12 });
    // At most half the limit are pivoted to, the focus first; the rest are counted.
    const small = await ask({ focus: { kind: 'source', id: 'e3@1' }, hops: 0, limit: 10 });
    expect(small.revisions.map((r) => r.revisionId)).toContain('e3@1');
    expect(small.revisions).toHaveLength(5);
    expect(small.pivot).toMatchObject({ total: 13, notShown: 8 });
    const group = await ask({ focus: { kind: 'group', id: 'e3@1' } });
    expect(group.pivot).toEqual({ by: 'group', value: null, total: 1, notShown: 0 });
    expect(nodes(group)).toEqual(['claim:c1', 'rev:e3@1']);
  });

  it('within any limit, hops and expansions: at most `limit` nodes, connected to the focus, each counting exactly its neighbours not drawn', async () => {
    const rnd = seededRandom(11_2);
    const everyNode = [...neighboursIn(() => true).keys()];
    for (let trial = 0; trial < 40; trial++) {
      const as = rnd() < 0.5 ? 'alice' : 'faye';
      const truth = neighboursIn((e) => as === 'alice' || e !== 'secret');
      const focusNode = everyNode[Math.floor(rnd() * everyNode.length)]!;
      const focus =
        rnd() < 0.3 ? ({ kind: 'case' } as const) : focusNode.startsWith('claim:') ? ({ kind: 'claim', id: focusNode.slice(6) } as const) : ({ kind: 'revision', id: focusNode.slice(4) } as const);
      if (as === 'faye' && focus.kind === 'revision' && focus.id === SECRET) continue;
      const request = { focus, hops: Math.floor(rnd() * 4), limit: 10, expand: everyNode.filter(() => rnd() < 0.3) };
      const g = await ask(request, as);
      const drawn = new Set(nodes(g));
      const why = `${as}: ${JSON.stringify(request)}`;
      expect(drawn.size, why).toBeLessThanOrEqual(10);
      for (const node of drawn) {
        const left = [...(truth.get(node) ?? [])].filter((n) => !drawn.has(n)).length;
        expect(g.hidden[node] ?? 0, `${why}: ${node}`).toBe(left);
      }
      if (focus.kind !== 'case') expect(drawn.has(focus.kind === 'claim' ? `claim:${focus.id}` : `rev:${focus.id}`), why).toBe(true);
      // Every drawn node is reachable from the focus (or, for the case, from a drawn claim) through drawn nodes.
      const start = focus.kind === 'case' ? [...drawn].filter((n) => n.startsWith('claim:')) : [focus.kind === 'claim' ? `claim:${focus.id}` : `rev:${focus.id}`];
      const reached = new Set(start);
      for (const queue = [...start]; queue.length > 0; ) {
        for (const n of truth.get(queue.pop()!) ?? []) {
          if (drawn.has(n) && !reached.has(n)) {
            queue.push(n);
            reached.add(n);
          }
        }
      }
      expect(reached, why).toEqual(drawn);
      expect(g.claimsNotShown, why).toBe(g.totalClaims - g.claims.length);
    }
  });
});

// Last: it adds a binding and moves lifecycles, which the tests above do not expect.
describe('graph:neighbourhood on the disputes', () => {
  it('opens on MIXED claims and DISPUTED revisions, as the Disputes view lists them, with their neighbours', async () => {
    tc.as('bob');
    for (const e of ['e9', 'e10', 'e11']) await tc.call('evidence:transition', { revisionId: rev(e), to: 'VALIDATED', reason: 'checked' });
    await tc.call('evidence:transition', { revisionId: rev('e11'), to: 'DISPUTED', reason: 'the vendor retracted it' });
    tc.as('alice');
    await tc.call('claim:bind', { claimId: 'c5', revisionId: rev('e10'), relation: 'REFUTES', role: 'SUPPORTING' });
    const mixed = (await tc.call('claim:list', {})).filter((c) => c.status === 'MIXED').map((c) => c.claimId);
    expect(mixed).toEqual(['c5']);
    const g = await ask({ focus: { kind: 'disputes' } });
    expect(g.disputes).toEqual({ total: 2, notShown: 0 });
    expect(nodes(g)).toEqual(['claim:c5', 'rev:e0@1', 'rev:e10@1', 'rev:e11@1', 'rev:e9@1']);
    expect(g.hidden).toEqual({ 'rev:e0@1': 5 });
    const none = await ask({ focus: { kind: 'disputes' }, limit: 10, hops: 0 });
    expect(nodes(none)).toEqual(['claim:c5', 'rev:e11@1']);
  });
});
