import { describe, expect, it } from 'vitest';
import { buildImportGraph, findCycles, formatCycle, moduleReferences, report, resolveRelative, stronglyConnected, type ImportGraph } from './check-cycles';

/** A graph from `from → to` pairs; `~>` marks a type-only import. */
function graphOf(...edges: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const edge of edges) {
    const [from, to] = edge.split(/ ~?> /) as [string, string];
    for (const m of [from, to]) if (!graph.has(m)) graph.set(m, []);
    graph.get(from)!.push({ to, typeOnly: edge.includes('~>') });
  }
  return graph;
}

describe('findCycles', () => {
  it('finds none in a layered graph', () => {
    const graph = graphOf('a.ts > b.ts', 'a.ts > c.ts', 'b.ts > c.ts', 'c.ts > d.ts');
    expect(findCycles(graph)).toEqual([]);
    expect(report(graph, [])).toBe('no import cycles among 4 modules');
  });

  it('finds a cycle closed by a type-only import and names it as a chain', () => {
    const graph = graphOf('store.ts > slice.ts', 'slice.ts ~> store.ts', 'store.ts > other.ts');
    const groups = findCycles(graph);
    expect(groups).toEqual([{ modules: ['slice.ts', 'store.ts'], cycles: [['slice.ts', 'store.ts', 'slice.ts']] }]);
    expect(formatCycle(graph, groups[0]!.cycles[0]!)).toBe('slice.ts → store.ts (type) → slice.ts');
  });

  it('lists a cycle through every import edge of a group, and separate groups apart', () => {
    // index imports each migration, each migration imports index: one group, one cycle per migration.
    const graph = graphOf('m/index.ts > m/0010.ts', 'm/index.ts > m/0020.ts', 'm/0010.ts ~> m/index.ts', 'm/0020.ts ~> m/index.ts', 'x.ts > y.ts', 'y.ts > z.ts', 'z.ts > x.ts');
    const groups = findCycles(graph);
    expect(groups.map((g) => g.modules)).toEqual([['m/0010.ts', 'm/0020.ts', 'm/index.ts'], ['x.ts', 'y.ts', 'z.ts']]);
    expect(groups[0]!.cycles).toEqual([
      ['m/0010.ts', 'm/index.ts', 'm/0010.ts'],
      ['m/0020.ts', 'm/index.ts', 'm/0020.ts'],
    ]);
    expect(groups[1]!.cycles).toEqual([['x.ts', 'y.ts', 'z.ts', 'x.ts']]);
    const text = report(graph, groups);
    expect(text).toContain('2 import cycle group(s) among 6 modules');
    expect(text).toContain('0010.ts → index.ts (type) → 0010.ts');
    expect(text).toContain('x.ts → y.ts → z.ts → x.ts');
    expect(text).toContain('hint:');
  });

  it('counts a module importing itself', () => {
    expect(findCycles(graphOf('a.ts > a.ts'))).toEqual([{ modules: ['a.ts'], cycles: [['a.ts', 'a.ts']] }]);
  });

  it('puts every module in exactly one strongly connected component', () => {
    const graph = graphOf('a.ts > b.ts', 'b.ts > a.ts', 'b.ts > c.ts', 'c.ts > d.ts', 'd.ts > c.ts');
    expect(stronglyConnected(graph).sort()).toEqual([
      ['a.ts', 'b.ts'],
      ['c.ts', 'd.ts'],
    ]);
  });
});

describe('reading imports', () => {
  it('sees imports, type imports, re-exports, import() and import types', () => {
    const code = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C } from './c';",
      "export { d } from './d';",
      "export type { E } from './e';",
      "export * from './f';",
      "const g = await import('./g');",
      "let h: import('./h').H;",
      "import 'zod';",
    ].join('\n');
    expect(moduleReferences('x.ts', code)).toEqual([
      { specifier: './a', typeOnly: false },
      { specifier: './b', typeOnly: true },
      { specifier: './c', typeOnly: true },
      { specifier: './d', typeOnly: false },
      { specifier: './e', typeOnly: true },
      { specifier: './f', typeOnly: false },
      { specifier: './g', typeOnly: false },
      { specifier: './h', typeOnly: true },
      { specifier: 'zod', typeOnly: false },
    ]);
  });

  it('resolves ./x to x.ts, x.tsx or x/index.ts and leaves packages and assets out', () => {
    const modules = new Set(['src/a.ts', 'src/View.tsx', 'src/state/index.ts', 'lib/b.ts']);
    expect(resolveRelative('src/main.ts', './a', modules)).toBe('src/a.ts');
    expect(resolveRelative('src/main.ts', './a.js', modules)).toBe('src/a.ts');
    expect(resolveRelative('src/main.ts', './View', modules)).toBe('src/View.tsx');
    expect(resolveRelative('src/main.ts', './state', modules)).toBe('src/state/index.ts');
    expect(resolveRelative('src/state/index.ts', '../../lib/b', modules)).toBe('lib/b.ts');
    expect(resolveRelative('src/main.ts', './styles.css', modules)).toBeUndefined();
    expect(resolveRelative('src/main.ts', 'react', modules)).toBeUndefined();
  });

  it('builds a graph whose cycles findCycles reports', () => {
    const files: Record<string, string> = {
      'state/store.ts': "import { slice } from './slice';\nexport const store = slice;",
      'state/slice.ts': "import type { Store } from './store';\nexport const slice = 1;",
      'state/types.ts': 'export type T = 1;',
    };
    const graph = buildImportGraph(Object.keys(files), (f) => files[f]!);
    expect(graph.get('state/slice.ts')).toEqual([{ to: 'state/store.ts', typeOnly: true }]);
    expect(findCycles(graph).map((g) => g.modules)).toEqual([['state/slice.ts', 'state/store.ts']]);
  });
});
