import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corroboration, independentGroups, type CorroborationItem } from './independence';

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

  it('collapses transitively: a~b by source, b~c by group', () => {
    expect(independentGroups([item('c', 'g', 'z'), item('a', null, 's'), item('b', 'g', 's'), item('d', null)])).toEqual(
      [['a', 'b', 'c'], ['d']],
    );
  });

  it('keeps group names and source names in separate namespaces', () => {
    expect(corroboration([item('a', 'x'), item('b', null, 'x')])).toEqual({ all: 2, independent: 2 });
  });

  it('an item with no group and no sources stands alone', () => {
    expect(independentGroups([item('b', null), item('a', null)])).toEqual([['a'], ['b']]);
  });

  it('the same ref twice is one item', () => {
    expect(corroboration([item('a', null, 's1'), item('a', null, 's2'), item('b', null, 's2')])).toEqual({
      all: 2,
      independent: 1,
    });
  });

  it('is empty for no items', () => {
    expect(independentGroups([])).toEqual([]);
    expect(corroboration([])).toEqual({ all: 0, independent: 0 });
  });

  it('adding a bridging item can lower |I_c| (so "adding never decreases independent" is false)', () => {
    const before = [item('a', null, 's1'), item('b', null, 's2')];
    expect(corroboration(before).independent).toBe(2);
    expect(corroboration([...before, item('c', null, 's1', 's2')]).independent).toBe(1);
  });
});

describe('independence: properties', () => {
  const name = (prefix: string, n: number) => fc.integer({ min: 0, max: n }).map((i) => `${prefix}${i}`);
  const anItem: fc.Arbitrary<CorroborationItem> = fc.record({
    ref: name('ev-', 12),
    independenceGroup: fc.option(name('g', 4)),
    originalSources: fc.array(name('s', 6), { maxLength: 3 }),
  });
  const items = fc.array(anItem, { maxLength: 12 });

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

  it('items sharing a source or a group always land together; different groups share no key', () => {
    fc.assert(
      fc.property(items, (xs) => {
        const groupOf = new Map<string, number>();
        independentGroups(xs).forEach((g, i) => g.forEach((ref) => groupOf.set(ref, i)));
        for (const x of xs) {
          for (const y of xs) {
            const linked =
              (x.independenceGroup !== null && x.independenceGroup === y.independenceGroup) ||
              x.originalSources.some((s) => y.originalSources.includes(s));
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

  it('N copies of one original source count once, whatever else they carry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.option(name('g', 3)), { minLength: 20 }), (n, groups) => {
        const copies = Array.from({ length: n }, (_, i) => item(`copy-${i}`, groups[i] ?? null, 'origin', `extra-${i}`));
        expect(corroboration(copies)).toEqual({ all: n, independent: 1 });
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

  it('adding a source or a group to an item never raises independent', () => {
    fc.assert(
      fc.property(items.filter((xs) => xs.length > 0), fc.nat(), name('s', 6), name('g', 4), (xs, i, s, g) => {
        const k = i % xs.length;
        const withSource = xs.map((x, j) => (j === k ? { ...x, originalSources: [...x.originalSources, s] } : x));
        const withGroup = xs.map((x, j) => (j === k && x.independenceGroup === null ? { ...x, independenceGroup: g } : x));
        const base = corroboration(xs).independent;
        expect(corroboration(withSource).independent).toBeLessThanOrEqual(base);
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
