import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corroboration, independentGroups, independentGroupsExplained, type CorroborationItem } from './independence';

const item = (ref: string, independenceGroup: string | null, ...originalSources: string[]): CorroborationItem => ({
  ref,
  independenceGroup,
  originalSources,
});

describe('independentGroups', () => {
  it('ten agent summaries of one web page are one source', () => {
    const copies = Array.from({ length: 10 }, (_, i) => item(`sum-${i}`, null, 'https://blog.example/post'));
    expect(corroboration(copies)).toEqual({ all: 10, independent: 1 });
  });

  it('collapses on a shared independence group', () => {
    expect(independentGroups([item('a', 'edr', 's1'), item('b', 'edr', 's2'), item('c', null, 's3')])).toEqual([
      ['a', 'b'],
      ['c'],
    ]);
  });

  it('a group is one source, counted for any source its members trace to', () => {
    // b and c are one source by declaration (group g); it traces to s and z. a traces to s only,
    // so {b, c} is counted for z and a for s: a shared source alone does not merge a into g.
    expect(independentGroups([item('c', 'g', 'z'), item('a', null, 's'), item('b', 'g', 's'), item('d', null)])).toEqual(
      [['a'], ['b', 'c'], ['d']],
    );
    // Without z, {b, c} and a have only s between them: one source.
    expect(independentGroups([item('c', 'g'), item('a', null, 's'), item('b', 'g', 's')].map((x) => (x.ref === 'c' ? { ...x, originalSources: ['s'] } : x)))).toEqual([['a', 'b', 'c']]);
  });

  it('keeps group names and source names in separate namespaces', () => {
    expect(corroboration([item('a', 'x'), item('b', null, 'x')])).toEqual({ all: 2, independent: 2 });
  });

  it('an item with no group and no sources stands alone', () => {
    expect(independentGroups([item('b', null), item('a', null)])).toEqual([['a'], ['b']]);
  });

  it('the same ref twice is one item, with the sources of both bindings', () => {
    expect(corroboration([item('a', null, 's1'), item('a', null, 's2'), item('b', null, 's2')])).toEqual({
      all: 2,
      // a stands for s1, b for s2.
      independent: 2,
    });
    expect(corroboration([item('a', null, 's1'), item('a', null, 's1')])).toEqual({ all: 1, independent: 1 });
  });

  it('is empty for no items', () => {
    expect(independentGroups([])).toEqual([]);
    expect(corroboration([])).toEqual({ all: 0, independent: 0 });
  });

  it('an item citing several sources does not merge the other items of those sources (issue 8.6)', () => {
    const before = [item('a', null, 's1'), item('b', null, 's2')];
    expect(corroboration(before).independent).toBe(2);
    // An agent summary of both reports: three items, still two independent sources, not one.
    const after = [...before, item('summary', null, 's1', 's2')];
    expect(corroboration(after)).toEqual({ all: 3, independent: 2 });
    expect(independentGroupsExplained(after)).toEqual([
      { refs: ['a', 'summary'], source: 's1', why: ['summary traces only to sources already counted (s1, s2)'] },
      { refs: ['b'], source: 's2', why: [] },
    ]);
    // The summary alone still counts once: a producer is not a second source.
    expect(corroboration([item('summary', null, 's1', 's2')]).independent).toBe(1);
  });

  it('probable copies collapse into one source and say why', () => {
    const vendor = item('vendor', null, 'https://vendor.example/report');
    const repost = { ...item('repost', null, 'https://blog.example/post'), copies: [{ ref: 'vendor', why: 'near-same content (91% of shingles)' }] };
    expect(corroboration([vendor, repost])).toEqual({ all: 2, independent: 1 });
    expect(independentGroupsExplained([vendor, repost])[0]!.why).toEqual(['repost is a probable copy of vendor: near-same content (91% of shingles)']);
    // A copy link to an item that is not among these bindings changes nothing, and explains nothing.
    expect(corroboration([repost]).independent).toBe(1);
    expect(independentGroupsExplained([repost])).toEqual([expect.objectContaining({ refs: ['repost'], why: [] })]);
    // A shared group says which group, and with whom.
    expect(independentGroupsExplained([item('a', 'edr', 's1'), item('b', 'edr', 's2')])[0]!.why).toEqual(['b shares independence group edr with a']);
  });

  it('says why once per merge: a group shared by two items already merged as copies adds no second sentence', () => {
    const vendor = item('vendor', 'acme-feed', 'https://vendor.example/report');
    const repost = { ...item('repost', 'acme-feed', 'https://blog.example/post'), copies: [{ ref: 'vendor', why: 'near-same content (91% of shingles)' }] };
    const [one, ...others] = independentGroupsExplained([vendor, repost]);
    expect(others).toEqual([]);
    // repost comes first (refs in order) and merges with vendor as its copy; vendor's group then joins nothing new.
    expect(one!.why).toEqual(['repost is a probable copy of vendor: near-same content (91% of shingles)']);
  });

  it('orders refs and groups by code unit, whatever order the items came in', () => {
    const refs = ['d', 'c', 'b', 'a', 'B', 'A', '10', '9'];
    expect(independentGroups(refs.map((r) => item(r, null)))).toEqual([['10'], ['9'], ['A'], ['B'], ['a'], ['b'], ['c'], ['d']]);
    expect(independentGroups(refs.map((r) => item(r, 'g')))).toEqual([['10', '9', 'A', 'B', 'a', 'b', 'c', 'd']]);
  });

  it('a cluster counted under another group joins it in ref order, and says so in the plural for several refs', () => {
    // {a, c} (group g) takes s; b traces to s only and joins it, between a and c.
    expect(independentGroups([item('a', 'g', 's'), item('b', null, 's'), item('c', 'g', 's')])).toEqual([['a', 'b', 'c']]);
    const [one] = independentGroupsExplained([item('a', null, 's1'), item('b', 'g', 's1'), item('c', 'g', 's1')]);
    expect(one!.why).toEqual(['c shares independence group g with b', 'b, c trace only to sources already counted (s1)']);
  });

  it('counts an item for its first source in order, and shows source names without their namespace', () => {
    expect(independentGroupsExplained([item('x', null, 's2', 's1')])[0]!.source).toBe('s1');
    expect(independentGroupsExplained([item('a', null, 'my-source:1'), item('b', null, 'source:feed'), item('logs:1', null)]).map((g) => g.source)).toEqual([
      'my-source:1',
      'feed',
      'item:logs:1',
    ]);
  });

  it('names the first group and the first copy in order when one merge has several reasons', () => {
    // b is in g2 and g1 (bound twice), both first taken by a: the sentence names g1.
    const groups = [item('a', 'g1'), item('a', 'g2'), item('b', 'g2'), item('b', 'g1')];
    expect(independentGroupsExplained(groups)[0]!.why).toEqual(['b shares independence group g1 with a']);
    // c is a probable copy of b and of a, already one source: the sentence names a.
    const copies = [item('a', 'g'), item('b', 'g'), { ...item('c', null), copies: [{ ref: 'b', why: 'near-same' }, { ref: 'a', why: 'near-same' }] }];
    expect(independentGroupsExplained(copies)[0]!.why).toEqual(['b shares independence group g with a', 'c is a probable copy of a: near-same']);
  });
});

describe('independence: properties', () => {
  const name = (prefix: string, n: number) => fc.integer({ min: 0, max: n }).map((i) => `${prefix}${i}`);
  const anItem: fc.Arbitrary<CorroborationItem> = fc.record({
    ref: name('ev-', 12),
    independenceGroup: fc.option(name('g', 4)),
    originalSources: fc.array(name('s', 6), { maxLength: 3 }),
  });
  // One item per ref, as a revision has one independence group and one set of sources; a revision
  // bound twice appears twice with the same facts (never with different ones, which no case holds).
  const items = fc
    .uniqueArray(anItem, { selector: (x) => x.ref, maxLength: 12 })
    .chain((xs) => fc.subarray(xs).map((again) => [...xs, ...again]));

  it('groups partition the distinct refs, deterministically ordered', () => {
    fc.assert(
      fc.property(items, (xs) => {
        const groups = independentGroups(xs);
        const flat = groups.flat();
        expect(new Set(flat).size).toBe(flat.length);
        expect(new Set(flat)).toEqual(new Set(xs.map((x) => x.ref)));
        for (const g of groups) expect(g).toEqual([...g].sort());
        const firsts = groups.map((g) => g[0] ?? '');
        expect(firsts).toEqual([...firsts].sort());
      }),
    );
  });

  it('items sharing a group, or single-source items sharing their source, always land together', () => {
    fc.assert(
      fc.property(items, (xs) => {
        const groupOf = new Map<string, number>();
        independentGroups(xs).forEach((g, i) => g.forEach((ref) => groupOf.set(ref, i)));
        for (const x of xs) {
          for (const y of xs) {
            // Multi-source items can stand for any one of their sources, so only one-source items are tied.
            const single = (z: CorroborationItem) => xs.filter((w) => w.ref === z.ref).flatMap((w) => w.originalSources);
            const sx = new Set(single(x));
            const sy = new Set(single(y));
            const linked =
              (x.independenceGroup !== null && x.independenceGroup === y.independenceGroup) ||
              (x.independenceGroup === null && y.independenceGroup === null && sx.size === 1 && sy.size === 1 && [...sx][0] === [...sy][0]);
            if (linked) expect(groupOf.get(x.ref)).toBe(groupOf.get(y.ref));
          }
        }
      }),
    );
  });

  it('1 ≤ independent ≤ all when there is any item', () => {
    fc.assert(
      fc.property(items, (xs) => {
        const c = corroboration(xs);
        expect(c.independent).toBeLessThanOrEqual(c.all);
        expect(c.independent >= 1).toBe(c.all >= 1);
      }),
    );
  });

  it('N copies of one original source count once, whatever groups they carry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.option(name('g', 3)), { minLength: 20 }), (n, groups) => {
        const copies = Array.from({ length: n }, (_, i) => item(`copy-${i}`, groups[i] ?? null, 'origin'));
        expect(corroboration(copies)).toEqual({ all: n, independent: 1 });
      }),
    );
  });

  it('N items tracing to the same few sources count at most once per source', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 3 }), (n, k) => {
        const xs = Array.from({ length: n }, (_, i) => item(`item-${i}`, null, ...Array.from({ length: k }, (__, j) => `origin-${(i + j) % k}`)));
        expect(corroboration(xs).independent).toBe(Math.min(n, k));
      }),
    );
  });

  it('adding an item never decreases all and raises independent by at most one', () => {
    fc.assert(
      fc.property(items, anItem, (xs, x) => {
        const before = corroboration(xs);
        const after = corroboration([...xs, x]);
        expect(after.all).toBeGreaterThanOrEqual(before.all);
        expect(after.independent).toBeLessThanOrEqual(before.independent + 1);
      }),
    );
  });

  it('adding an item that shares nothing raises independent by exactly one', () => {
    fc.assert(
      fc.property(items, (xs) => {
        const before = corroboration(xs);
        const after = corroboration([...xs, item('fresh-ref', 'fresh-group', 'fresh-source')]);
        expect(after).toEqual({ all: before.all + 1, independent: before.independent + 1 });
      }),
    );
  });

  it('adding a group to an item never raises independent; adding a source never lowers it', () => {
    fc.assert(
      fc.property(items.filter((xs) => xs.length > 0), fc.nat(), name('s', 6), name('g', 4), (xs, i, s, g) => {
        const k = i % xs.length;
        // An item with no source is its own source; giving it a first one can tie it to others.
        const withSource = xs.map((x, j) => (j === k && x.originalSources.length > 0 ? { ...x, originalSources: [...x.originalSources, s] } : x));
        const withGroup = xs.map((x, j) => (j === k && x.independenceGroup === null ? { ...x, independenceGroup: g } : x));
        const base = corroboration(xs).independent;
        expect(corroboration(withSource).independent).toBeGreaterThanOrEqual(base);
        expect(corroboration(withGroup).independent).toBeLessThanOrEqual(base);
      }),
    );
  });

  it('does not depend on item order', () => {
    const withPermutation = items.chain((xs) =>
      fc.tuple(fc.constant(xs), fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length })),
    );
    fc.assert(
      fc.property(withPermutation, ([xs, shuffled]) => {
        expect(independentGroups(shuffled)).toEqual(independentGroups(xs));
      }),
    );
  });
});
