/**
 * Independent corroboration (DESIGN §3.2, §3.11): |I_c| counts original sources, not items, so
 * ten agents copying one web page count once. |E_c| (all) is shown beside |I_c| (independent).
 *
 * Two steps:
 * 1. Items that are the same source by declaration collapse into one *cluster*: a shared
 *    independence group, or a probable copy found on ingest that no reviewer has confirmed as
 *    independent (seed 000 §38.2).
 * 2. |I_c| is the largest number of clusters that can each be paired with a distinct original
 *    source they trace to (a maximum bipartite matching). Items tracing to one source count once;
 *    an item that cites several sources (an agent summary of two reports) can stand for any one
 *    of them, but never merges the other items of those sources into one. Untraced evidence is
 *    its own source.
 */

export interface CorroborationItem {
  ref: string;
  independenceGroup: string | null;
  originalSources: readonly string[];
  /** Probable copies of this item among the others (unconfirmed), with why they were merged. */
  copies?: readonly { ref: string; why: string }[];
}

export interface Corroboration {
  all: number;
  independent: number;
}

export interface IndependentGroup {
  /** Refs counted as this one independent source, sorted. */
  refs: string[];
  /** The original source the group is counted for. */
  source: string;
  /** Why refs beyond the first are in this group; one sentence each, for the UI. */
  why: string[];
}

// Code-unit order, not localeCompare: output must not depend on the machine's locale.
function compare(a: string, b: string): number {
  if (a < b) return -1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: V8's sort asks only whether the result is negative; 1 and 0 order alike.
  return a > b ? 1 : 0;
}

interface Cluster {
  refs: string[];
  sources: string[];
  why: string[];
}

/** Step 1: clusters of items that are one source by declaration (group) or by probable copy. */
function clusters(items: readonly CorroborationItem[]): Cluster[] {
  const byRef = new Map<string, { sources: Set<string>; groups: Set<string>; copies: { ref: string; why: string }[] }>();
  for (const item of items) {
    let known = byRef.get(item.ref);
    // The same revision bound twice is one piece of evidence, with everything either binding knew.
    if (!known) byRef.set(item.ref, (known = { sources: new Set(), groups: new Set(), copies: [] }));
    for (const s of item.originalSources) known.sources.add(s);
    if (item.independenceGroup !== null) known.groups.add(item.independenceGroup);
    known.copies.push(...(item.copies ?? []));
  }
  const refs = [...byRef.keys()].sort(compare);
  const uf = new UnionFind();
  // Why each merge happened, kept with the ref that joined: one sentence per merge.
  const why = new Map<string, string[]>();
  const explain = (ref: string, sentence: string) => why.set(ref, [...(why.get(ref) ?? []), sentence]);
  const firstInGroup = new Map<string, string>();
  for (const ref of refs) {
    const { groups, copies } = byRef.get(ref)!;
    for (const group of [...groups].sort(compare)) {
      const first = firstInGroup.get(group);
      if (first === undefined) firstInGroup.set(group, ref);
      else if (uf.union(first, ref)) explain(ref, `${ref} shares independence group ${group} with ${first}`);
    }
    for (const copy of [...copies].sort((a, b) => compare(a.ref, b.ref))) {
      if (!byRef.has(copy.ref)) continue;
      if (uf.union(copy.ref, ref)) explain(ref, `${ref} is a probable copy of ${copy.ref}: ${copy.why}`);
    }
  }
  const byRoot = new Map<string, Cluster>();
  for (const ref of refs) {
    const root = uf.find(ref);
    let c = byRoot.get(root);
    if (!c) byRoot.set(root, (c = { refs: [], sources: [], why: [] }));
    c.refs.push(ref);
    const own = [...byRef.get(ref)!.sources];
    // An item with no traced source stands alone: it is its own source.
    c.sources.push(...(own.length > 0 ? own.map((s) => `s:${s}`) : [`item:${ref}`]));
    c.why.push(...(why.get(ref) ?? []));
  }
  return [...byRoot.values()].map((c) => ({ ...c, sources: [...new Set(c.sources)].sort(compare) }));
}

/**
 * Step 2: a maximum matching of clusters to distinct sources (augmenting paths, clusters and
 * sources in sorted order so the result is deterministic). Returns the source each matched
 * cluster counts for; unmatched clusters have every source taken by a matched one.
 */
function matchSources(cs: readonly Cluster[]): (string | null)[] {
  const owner = new Map<string, number>();
  const tryAssign = (i: number, seen: Set<string>): boolean => {
    for (const s of cs[i]!.sources) {
      if (seen.has(s)) continue;
      seen.add(s);
      const holder = owner.get(s);
      if (holder === undefined || tryAssign(holder, seen)) {
        owner.set(s, i);
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < cs.length; i += 1) tryAssign(i, new Set());
  const matched: (string | null)[] = cs.map(() => null);
  for (const [s, i] of owner) matched[i] = s;
  return matched;
}

/** A source key as people read it: without the namespace prefixes ("s:", and "source:" of untraced evidence). */
const display = (key: string): string => key.replace(/^s:/, '').replace(/^source:/, '');

/**
 * The independent groups: one per counted source, with the clusters that could not be counted
 * separately folded into the group of a source they share. Groups partition the distinct refs;
 * output is deterministic (refs sorted in a group, groups by their first ref).
 */
export function independentGroupsExplained(items: readonly CorroborationItem[]): IndependentGroup[] {
  // Stryker disable next-line MethodExpression: clusters() already yields them by first ref; sorted here so the matching's order is explicit.
  const cs = clusters(items).sort((a, b) => compare(a.refs[0]!, b.refs[0]!));
  const matched = matchSources(cs);
  const groups = new Map<string, IndependentGroup>();
  cs.forEach((c, i) => {
    const source = matched[i];
    if (source !== null && source !== undefined) groups.set(source, { refs: [...c.refs], source: display(source), why: [...c.why] });
  });
  cs.forEach((c, i) => {
    if (matched[i] !== null) return;
    // Every source of an unmatched cluster is counted for another one (else the matching would grow).
    const shared = c.sources.find((s) => groups.has(s))!;
    const g = groups.get(shared)!;
    g.refs.push(...c.refs);
    g.why.push(...c.why, `${c.refs.join(', ')} ${c.refs.length === 1 ? 'traces' : 'trace'} only to sources already counted (${c.sources.map(display).join(', ')})`);
  });
  const sorted = [...groups.values()].map((g) => ({ ...g, refs: g.refs.sort(compare) }));
  // Stryker disable next-line MethodExpression: an unmatched cluster cannot come before the group it joins (its source's holder could then have moved to let it in), so this order holds already; kept so the output's order is stated.
  return sorted.sort((a, b) => compare(a.refs[0]!, b.refs[0]!));
}

/** Partition of the distinct refs into independent groups (see independentGroupsExplained). */
export function independentGroups(items: readonly CorroborationItem[]): string[][] {
  return independentGroupsExplained(items).map((g) => g.refs);
}

export function corroboration(items: readonly CorroborationItem[]): Corroboration {
  const groups = independentGroupsExplained(items);
  return { all: groups.reduce((n, g) => n + g.refs.length, 0), independent: groups.length };
}

class UnionFind {
  private readonly parent = new Map<string, string>();

  /** A ref never joined is its own root. A root has no parent entry: union and compression never point a ref at itself. */
  find(x: string): string {
    let root = x;
    for (let p = this.parent.get(root); p !== undefined; p = this.parent.get(root)) root = p;
    // Path compression keeps repeated finds near O(1) on long copy chains.
    // Stryker disable next-line ConditionalExpression: compression changes no root, only how fast the next find is.
    for (let cur = x; cur !== root; ) {
      const next = this.parent.get(cur) ?? root;
      this.parent.set(cur, root);
      cur = next;
    }
    return root;
  }

  /** Joins the sets of a and b; false when they were already one. */
  union(a: string, b: string): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    // Stryker disable next-line EqualityOperator: ra and rb differ here, so < and <= agree.
    this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
    return true;
  }
}
