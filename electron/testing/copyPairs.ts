import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bandKeys, copySignature, judgeCopy } from '../../shared/domain/copies';
import { SHARED_DATA } from './sharedData';
import { header, paraphrase, reformat, reorder, sentences, shuffled, splicePhrase, truncate } from './copyEdits';

/**
 * Test helper (not a test): a labelled set of probable-copy pairs built from real third-party text
 * (the STIX 2.1 example bundles in ../shared/data, read in place, never copied), and the measure
 * of judgeCopy and of the band index over it.
 *
 * Positives are made from one base text by the edits copies go through on their way between
 * feeds: re-heading, truncation, re-ordering, re-formatting, light paraphrase, and a combination.
 * Negatives are two different base texts, including hard ones from the same bundle and object type
 * (shared templates and vocabulary), and a text with one short phrase of another spliced in.
 *
 * "Different" is defined without the detector, by exact word-trigram containment: the data itself
 * holds versions of one description (the APT1 appendix and report, Poison Ivy sample notes filled
 * from one template). A text at least 80% contained in an earlier base text is a version of it and
 * is left out of the base set; two base texts that share half their trigrams or more are neither
 * clearly a copy nor clearly different, so they are never used as a negative pair. Both kinds are
 * returned so a test can report what the detector makes of them.
 * PROV-JSON labels in ../shared/data/prov-json are too short to use (one string of 4+ words).
 */


/** Base texts need a 60% truncation to stay above a sentence (12+ words), so 20 words at least. */
const MIN_BASE_WORDS = 20;
/** Trigram containment at which a text is a version of another (left out of the base set). */
const VERSION_CONTAINMENT = 0.8;
/** Negatives share less than half their word trigrams: two different documents by definition. */
const DIFFERENT_CONTAINMENT = 0.5;
const TEXT_FIELDS = new Set(['description', 'statement', 'name', 'summary', 'abstract', 'content', 'explanation']);

export interface BaseText {
  text: string;
  /** Path under the data folder, e.g. "stix2.1-examples/Appendix_G_IOCs_Full.json". */
  file: string;
  objectType: string;
}

export interface CopyCorpus {
  texts: BaseText[];
  /** Pairs in the data where one text is a version of the other (the later one left out). */
  versions: [string, string][];
  /** Base-text pairs sharing half or more of their trigrams: unlabelled, never used as negatives. */
  overlaps: [string, string][];
}

export const POSITIVE_CATEGORIES = ['exact', 'header', 'truncation', 'reorder', 'reformat', 'paraphrase', 'header+truncation'] as const;
export const NEGATIVE_CATEGORIES = ['different', 'same-bundle', 'nearest-neighbour', 'shared-phrase'] as const;
export type CopyCategory = (typeof POSITIVE_CATEGORIES)[number] | (typeof NEGATIVE_CATEGORIES)[number];

export interface CopyPair {
  id: string;
  category: CopyCategory;
  copy: boolean;
  a: string;
  b: string;
}

export function loadCopyCorpus(dataDir = SHARED_DATA): CopyCorpus {
  const files = [
    ...jsonFiles(join(dataDir, 'stix2.1-examples'), false),
    ...jsonFiles(join(dataDir, 'stix2.1-schemas', 'examples'), true),
  ];
  const seen = new Set<string>();
  const candidates: BaseText[] = [];
  for (const path of files) {
    const file = relative(dataDir, path).split('\\').join('/');
    collectTexts(JSON.parse(readFileSync(path, 'utf8')) as unknown, '', '', (text, objectType) => {
      const key = text.toLowerCase();
      if (wordCount(text) < MIN_BASE_WORDS || seen.has(key)) return;
      seen.add(key);
      candidates.push({ text, file, objectType });
    });
  }
  const texts: BaseText[] = [];
  const kept: Set<string>[] = [];
  const versions: [string, string][] = [];
  for (const candidate of candidates) {
    const grams = wordTrigrams(candidate.text);
    const original = kept.findIndex((k) => referenceContainment(k, grams) >= VERSION_CONTAINMENT);
    if (original >= 0) versions.push([texts[original]!.text, candidate.text]);
    else {
      texts.push(candidate);
      kept.push(grams);
    }
  }
  const overlaps: [string, string][] = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (referenceContainment(kept[i]!, kept[j]!) >= DIFFERENT_CONTAINMENT) overlaps.push([texts[i]!.text, texts[j]!.text]);
    }
  }
  return { texts, versions, overlaps };
}

/**
 * Exact containment of word trigrams (all words, no stemming): the classic resemblance measure,
 * independent of the detector's normalisation, hashing and estimation.
 */
export function referenceContainment(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const g of small) if (large.has(g)) shared++;
  return shared / small.size;
}

export function wordTrigrams(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) grams.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return grams;
}

/**
 * 30 pairs per positive category (210) and 210 negatives: 60 from different bundles, 60 from the
 * same bundle and object type, 50 nearest neighbours, 40 with a spliced phrase. The same corpus
 * and seed give the same set.
 */
export function buildCopyPairs(corpus: CopyCorpus, seed = 20240601): CopyPair[] {
  const { texts } = corpus;
  const rng = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const pairs: CopyPair[] = [];
  const counts = new Map<CopyCategory, number>();
  const add = (category: CopyCategory, copy: boolean, a: string, b: string) => {
    const n = counts.get(category) ?? 0;
    counts.set(category, n + 1);
    pairs.push({ id: `${category}-${n}`, category, copy, a, b });
  };

  const bases = (from: readonly BaseText[] = texts) => shuffled(from, rng).slice(0, 30);
  for (const t of bases()) add('exact', true, t.text, t.text);
  for (const [i, t] of bases().entries()) {
    // Half: the original against a re-headed copy; half: two feeds' different headers.
    add('header', true, i % 2 === 0 ? t.text : header(rng) + t.text, header(rng) + t.text);
  }
  for (const t of bases()) add('truncation', true, t.text, truncate(t.text, rng));
  for (const t of bases(texts.filter((t) => sentences(t.text).length >= 2))) add('reorder', true, t.text, reorder(t.text, rng));
  for (const t of bases()) add('reformat', true, t.text, reformat(t.text, rng));
  for (const t of bases()) add('paraphrase', true, t.text, paraphrase(t.text, rng));
  for (const t of bases()) add('header+truncation', true, t.text, header(rng) + truncate(t.text, rng));

  // Negatives: two distinct base texts, each pair once, never an unlabelled overlap.
  const overlapping = new Set(corpus.overlaps.map(pairKey));
  const used = new Set<string>();
  const addNegative = (category: CopyCategory, x: BaseText, y: BaseText, b = y.text): boolean => {
    const key = pairKey([x.text, y.text]);
    if (x.text === y.text || used.has(key) || overlapping.has(key)) return false;
    used.add(key);
    add(category, false, x.text, b);
    return true;
  };
  const draw = (count: number, attempt: () => boolean) => {
    for (let n = 0, tries = 0; n < count && tries < 100 * count; tries++) if (attempt()) n++;
  };
  draw(60, () => {
    const [x, y] = [pick(texts), pick(texts)];
    return x.file !== y.file && addNegative('different', x, y);
  });
  const byBundle = new Map<string, BaseText[]>();
  for (const t of texts) byBundle.set(`${t.file}#${t.objectType}`, [...(byBundle.get(`${t.file}#${t.objectType}`) ?? []), t]);
  const bundles = [...byBundle.values()].filter((g) => g.length >= 2);
  draw(60, () => {
    const bundle = pick(bundles);
    return addNegative('same-bundle', pick(bundle), pick(bundle));
  });
  // The hardest: a text against its most similar different text, by exact trigram containment.
  const grams = new Map(texts.map((t) => [t.text, wordTrigrams(t.text)]));
  const queue = shuffled(texts, rng);
  draw(50, () => {
    const x = queue.pop();
    if (x === undefined) return false;
    const nearest = texts
      .filter((y) => y !== x && !overlapping.has(pairKey([x.text, y.text])))
      .map((y) => ({ y, c: referenceContainment(grams.get(x.text)!, grams.get(y.text)!) }))
      .sort((p, q) => q.c - p.c)[0];
    return nearest !== undefined && nearest.c > 0 && addNegative('nearest-neighbour', x, nearest.y);
  });
  draw(40, () => {
    const [x, y] = [pick(texts), pick(texts)];
    return addNegative('shared-phrase', x, y, splicePhrase(y.text, x.text, rng));
  });
  return pairs;
}

// --- measurement ------------------------------------------------------------------------------------

export interface CategoryResult {
  category: CopyCategory;
  copy: boolean;
  pairs: number;
  /** Pairs judgeCopy called a probable copy. */
  flagged: number;
  /** Pairs sharing at least one band key. */
  bandHits: number;
  meanContainment: number;
}

export interface CopyEvaluation {
  pairs: number;
  positives: number;
  precision: number;
  recall: number;
  /** Labelled positives that share at least one band key (the index finds them as candidates). */
  lshRecall: number;
  /** Pairs judgeCopy called copies that share at least one band key. */
  lshRecallOfJudged: number;
  byCategory: CategoryResult[];
  mistakes: { id: string; copy: boolean; reason: string }[];
}

export function evaluateCopyDetection(pairs: readonly CopyPair[]): CopyEvaluation {
  const byCategory = new Map<CopyCategory, CategoryResult>();
  const mistakes: CopyEvaluation['mistakes'] = [];
  let truePositives = 0;
  let flagged = 0;
  let positives = 0;
  let positivesInBand = 0;
  let flaggedInBand = 0;
  for (const pair of pairs) {
    const [sa, sb] = [copySignature(pair.a), copySignature(pair.b)];
    const judgement = judgeCopy(sa, sb);
    const keys = new Set(bandKeys(sa));
    const inBand = bandKeys(sb).some((k) => keys.has(k));
    const r = byCategory.get(pair.category) ?? { category: pair.category, copy: pair.copy, pairs: 0, flagged: 0, bandHits: 0, meanContainment: 0 };
    byCategory.set(pair.category, r);
    r.meanContainment = (r.meanContainment * r.pairs + judgement.containment) / (r.pairs + 1);
    r.pairs++;
    if (inBand) r.bandHits++;
    if (judgement.probableCopy) {
      r.flagged++;
      flagged++;
      if (pair.copy) truePositives++;
      if (inBand) flaggedInBand++;
    }
    if (pair.copy) {
      positives++;
      if (inBand) positivesInBand++;
    }
    if (pair.copy !== judgement.probableCopy) mistakes.push({ id: pair.id, copy: pair.copy, reason: judgement.reason });
  }
  return {
    pairs: pairs.length,
    positives,
    precision: flagged === 0 ? 1 : truePositives / flagged,
    recall: positives === 0 ? 1 : truePositives / positives,
    lshRecall: positives === 0 ? 1 : positivesInBand / positives,
    lshRecallOfJudged: flagged === 0 ? 1 : flaggedInBand / flagged,
    byCategory: [...byCategory.values()],
    mistakes,
  };
}

/** Share of a's words (as a multiset, case-folded) that b no longer has: how strong an edit was. */
export function wordChangeRate(a: string, b: string): number {
  const words = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const left = new Map<string, number>();
  for (const w of words(b)) left.set(w, (left.get(w) ?? 0) + 1);
  const original = words(a);
  let kept = 0;
  for (const w of original) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      kept++;
      left.set(w, n - 1);
    }
  }
  return original.length === 0 ? 0 : 1 - kept / original.length;
}

// --- plumbing -----------------------------------------------------------------------------------------

function pairKey([x, y]: readonly [string, string]): string {
  return x < y ? `${x}\u0000${y}` : `${y}\u0000${x}`;
}

function jsonFiles(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && recursive) out.push(...jsonFiles(path, true));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(path);
  }
  return out;
}

function collectTexts(node: unknown, key: string, objectType: string, visit: (text: string, objectType: string) => void): void {
  if (typeof node === 'string') {
    if (TEXT_FIELDS.has(key)) visit(visibleText(node), objectType);
  } else if (Array.isArray(node)) {
    for (const item of node) collectTexts(item, key, objectType, visit);
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    const type = typeof record.type === 'string' ? record.type : objectType;
    for (const [k, v] of Object.entries(record)) collectTexts(v, k, type, visit);
  }
}

/** What a reader sees: markup dropped, whitespace collapsed. */
function visibleText(raw: string): string {
  return raw.replace(/<\/?[a-z!][^<>]*>/gi, ' ').replace(/\s+/g, ' ').trim();
}

function wordCount(text: string): number {
  return text.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

