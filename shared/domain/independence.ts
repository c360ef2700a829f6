/**
 * Independent corroboration (DESIGN §3.2): evidence is collapsed when it shares an independence
 * group or any original source, transitively, so ten agents copying one web page count once.
 * |E_c| (all) is shown beside |I_c| (independent).
 */

export interface CorroborationItem {
  ref: string;
  independenceGroup: string | null;
  originalSources: readonly string[];
}

export interface Corroboration {
  all: number;
  independent: number;
}

/**
 * Partitions item refs into independence groups. Items with the same ref are one item (the same
 * revision bound twice is not two pieces of evidence). An item with no group and no original
 * sources stands alone: it is its own source.
 * Output is deterministic: refs sorted within a group, groups sorted by their first ref.
 */
export function independentGroups(items: readonly CorroborationItem[]): string[][] {
  const uf = new UnionFind();
  for (const item of items) {
    const node = `ref:${item.ref}`;
    uf.add(node);
    // Prefixes keep the namespaces apart: a group named "x" is not a source named "x".
    if (item.independenceGroup !== null) uf.union(node, `group:${item.independenceGroup}`);
    for (const source of item.originalSources) uf.union(node, `source:${source}`);
  }
  const byRoot = new Map<string, Set<string>>();
  for (const item of items) {
    const root = uf.find(`ref:${item.ref}`);
    let refs = byRoot.get(root);
    if (!refs) byRoot.set(root, (refs = new Set()));
    refs.add(item.ref);
  }
  return [...byRoot.values()]
    .map((refs) => [...refs].sort(compare))
    .sort((a, b) => compare(a[0] ?? '', b[0] ?? ''));
}

export function corroboration(items: readonly CorroborationItem[]): Corroboration {
  const groups = independentGroups(items);
  return { all: groups.reduce((n, g) => n + g.length, 0), independent: groups.length };
}

// Code-unit order, not localeCompare: output must not depend on the machine's locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

class UnionFind {
  private readonly parent = new Map<string, string>();

  add(x: string): void {
    if (!this.parent.has(x)) this.parent.set(x, x);
  }

  find(x: string): string {
    this.add(x);
    let root = x;
    for (let p = this.parent.get(root); p !== undefined && p !== root; p = this.parent.get(root)) root = p;
    // Path compression keeps repeated finds near O(1) on long copy chains.
    for (let cur = x; cur !== root; ) {
      const next = this.parent.get(cur) ?? root;
      this.parent.set(cur, root);
      cur = next;
    }
    return root;
  }

  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}
