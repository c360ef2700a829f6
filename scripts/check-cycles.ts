// `npm run check:cycles`: fails when source modules import each other in a circle. A cycle makes
// load order matter (an import is `undefined` while its module is still initialising) and makes the
// code impossible to read one file at a time, so type-only imports count as much as value imports.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** One import of `to` by a module; `typeOnly` when every import of it there is erased at build time. */
export interface ImportEdge {
  to: string;
  typeOnly: boolean;
}
export type ImportGraph = Map<string, ImportEdge[]>;

/** A strongly connected component of more than one module (or one importing itself). */
export interface CycleGroup {
  modules: string[];
  /** Shortest cycles that between them use every import edge inside the group, each closed (last = first). */
  cycles: string[][];
}

const SOURCE = /\.tsx?$/;
const EXCLUDED = /\.(test|spec)\.tsx?$|\.d\.ts$/;

/** Tracked files plus new ones git does not ignore, so a cycle is caught before it is committed. */
export function sourceFiles(root: string): string[] {
  let out: string;
  try {
    out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  } catch (err) {
    throw new Error(`check-cycles: git ls-files failed in ${root}; run it inside the repository's git checkout (${(err as Error).message})`);
  }
  const files = out.split('\0').filter((f) => SOURCE.test(f) && !EXCLUDED.test(f) && existsSync(join(root, f)));
  return [...new Set(files)].sort();
}

/** Every module specifier a file names: imports, `export … from`, `import x = require()`, `import()` and `import('…').T`. */
export function moduleReferences(fileName: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const refs: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const allNamedAreTypes = !!named && named.length > 0 && !clause?.name && named.every((e) => e.isTypeOnly);
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: !!clause && (clause.isTypeOnly || allNamedAreTypes) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)) });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      refs.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      refs.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      refs.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

/** `./x` → x.ts, x.tsx, x/index.ts or x/index.tsx among the known modules; `./x.js` → x.ts (bundler resolution). */
export function resolveRelative(from: string, specifier: string, modules: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = base.replace(/\.(c|m)?jsx?$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((c) => modules.has(c));
}

/** The import graph over the given repo-relative files; imports of packages and non-source files are left out. */
export function buildImportGraph(files: readonly string[], read: (file: string) => string): ImportGraph {
  const modules = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const edges = new Map<string, boolean>();
    for (const { specifier, typeOnly } of moduleReferences(file, read(file))) {
      const to = resolveRelative(file, specifier, modules);
      if (to) edges.set(to, (edges.get(to) ?? true) && typeOnly);
    }
    graph.set(file, [...edges].map(([to, typeOnly]) => ({ to, typeOnly })).sort((a, b) => a.to.localeCompare(b.to)));
  }
  return graph;
}

/** Tarjan's algorithm: the strongly connected components, each a set of modules that reach one another. */
export function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const { to: w } of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components;
}

/** Shortest path from `from` to `to` using only modules of `members` (breadth first). */
function shortestPath(graph: ImportGraph, members: ReadonlySet<string>, from: string, to: string): string[] | undefined {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    if (v === to) {
      const path = [v];
      for (let p = previous.get(v); p; p = previous.get(p)) path.unshift(p);
      return path;
    }
    for (const { to: w } of graph.get(v) ?? []) {
      if (members.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return undefined;
}

/** A cycle written from its alphabetically first module, so the same cycle always reads the same. */
function canonical(cycle: string[]): string[] {
  const open = cycle.slice(0, -1);
  const start = open.indexOf([...open].sort()[0]!);
  const rotated = [...open.slice(start), ...open.slice(0, start)];
  return [...rotated, rotated[0]!];
}

/**
 * Every group of modules that import one another, with enough cycles to show each import edge that
 * takes part: cutting one edge of every listed cycle is what it takes to break the group.
 */
export function findCycles(graph: ImportGraph): CycleGroup[] {
  const groups: CycleGroup[] = [];
  for (const modules of stronglyConnected(graph)) {
    const members = new Set(modules);
    const selfLoop = modules.length === 1 && (graph.get(modules[0]!) ?? []).some((e) => e.to === modules[0]);
    if (modules.length === 1 && !selfLoop) continue;
    const covered = new Set<string>();
    const cycles = new Map<string, string[]>();
    for (const from of modules) {
      for (const { to } of graph.get(from) ?? []) {
        if (!members.has(to) || covered.has(`${from}\0${to}`)) continue;
        const back = shortestPath(graph, members, to, from)!;
        const cycle = canonical([from, ...back]);
        for (let i = 0; i + 1 < cycle.length; i++) covered.add(`${cycle[i]}\0${cycle[i + 1]}`);
        cycles.set(cycle.join('\0'), cycle);
      }
    }
    groups.push({ modules, cycles: [...cycles.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join())) });
  }
  return groups.sort((a, b) => a.modules[0]!.localeCompare(b.modules[0]!));
}

/** The folder every module of a group lives under, so chains can name files relative to it. */
function commonFolder(modules: readonly string[]): string {
  const parts = modules.map((m) => posix.dirname(m).split('/'));
  const shared: string[] = [];
  for (let i = 0; parts.every((p) => p[i] !== undefined && p[i] === parts[0]![i]); i++) shared.push(parts[0]![i]!);
  return shared.filter((p) => p !== '.').join('/');
}

/** `a.ts → b.ts → a.ts`, with `(type)` after a module reached only through type imports. */
export function formatCycle(graph: ImportGraph, cycle: readonly string[], folder = ''): string {
  const name = (m: string) => (folder ? posix.relative(folder, m) : m);
  return cycle
    .map((m, i) => {
      if (i === 0) return name(m);
      const typeOnly = graph.get(cycle[i - 1]!)?.find((e) => e.to === m)?.typeOnly;
      return `${name(m)}${typeOnly ? ' (type)' : ''}`;
    })
    .join(' → ');
}

export function report(graph: ImportGraph, groups: readonly CycleGroup[]): string {
  if (groups.length === 0) return `no import cycles among ${graph.size} modules`;
  const lines = [`${groups.length} import cycle group(s) among ${graph.size} modules:`];
  groups.forEach((group, i) => {
    const folder = commonFolder(group.modules);
    lines.push('', `${i + 1}. ${group.modules.length} modules under ${folder || '.'}/`);
    for (const cycle of group.cycles) lines.push(`   ${formatCycle(graph, cycle, folder)}`);
  });
  lines.push(
    '',
    '(type) marks a module reached only through type imports: a type cycle is still a cycle for a reader.',
    'hint: move what both sides need (often a type or a constant) into its own module that imports neither, or pass it in as a parameter.',
  );
  return lines.join('\n');
}

function main(): void {
  const root = resolve(import.meta.dirname, '..');
  const files = sourceFiles(root);
  const graph = buildImportGraph(files, (f) => readFileSync(join(root, f), 'utf8'));
  const groups = findCycles(graph);
  const text = report(graph, groups);
  if (groups.length > 0) {
    console.error(text);
    process.exit(1);
  }
  console.log(text);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
