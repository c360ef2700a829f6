import { beforeAll, describe, expect, it } from 'vitest';
import { bandKeys, copySignature, judgeCopy } from '../../shared/domain/copies';
import {
  buildCopyPairs,
  evaluateCopyDetection,
  loadCopyCorpus,
  NEGATIVE_CATEGORIES,
  POSITIVE_CATEGORIES,
  wordChangeRate,
  type CopyCorpus,
  type CopyEvaluation,
  type CopyPair,
} from './copyPairs';

// Measures judgeCopy and the band index on the labelled set built from ../shared/data. The goals
// (precision 0.95, recall 0.90, band-candidate recall 0.95) are fixed in advance; the thresholds in
// copies.ts come from their own reasoning, not from these pairs.
describe('probable-copy detection on the labelled STIX set', () => {
  let corpus: CopyCorpus;
  let pairs: CopyPair[];
  let result: CopyEvaluation;

  beforeAll(() => {
    corpus = loadCopyCorpus();
    pairs = buildCopyPairs(corpus);
    result = evaluateCopyDetection(pairs);
    const versions = natural(corpus.versions);
    const overlaps = natural(corpus.overlaps);
    const truePositives = Math.round(result.recall * result.positives);
    const flagged = result.precision === 0 ? 0 : truePositives / result.precision;
    const pct = (x: number) => x.toFixed(2);
    const lines = [
      `copy detection: ${result.pairs} pairs (${result.positives} positive), precision ${pct(result.precision)}, ` +
        `recall ${pct(result.recall)}, LSH candidate recall ${pct(result.lshRecall)} ` +
        `(of pairs judged copies: ${pct(result.lshRecallOfJudged)}); ${corpus.texts.length} base texts`,
      ...result.byCategory.map(
        (c) =>
          `  ${c.copy ? 'copy    ' : 'distinct'} ${c.category.padEnd(18)} ${String(c.pairs).padStart(3)} pairs, ` +
          `judged copy ${String(c.flagged).padStart(3)} (${pct(c.flagged / c.pairs)}), share a band ${pct(c.bandHits / c.pairs)}, ` +
          `mean est. containment ${pct(c.meanContainment)}`,
      ),
      `  paraphrase strength: ${Math.round(100 * mean(pairs.filter((p) => p.category === 'paraphrase').map((p) => wordChangeRate(p.a, p.b))))}% of words changed on average`,
      `  unlabelled pairs found in the data: ${naturalLine('versions (≥80% shared word trigrams)', versions)}; ${naturalLine('overlaps (50–80%)', overlaps)}`,
      `  counting those overlaps as distinct would make precision ${pct(truePositives / (flagged + overlaps.judged))}`,
      ...result.mistakes.map((m) => `  missed ${m.copy ? 'copy' : 'distinct'} ${m.id}: ${m.reason}`),
    ];
    console.log(lines.join('\n'));
  });

  it('read the data folder and built a big enough set with both classes', () => {
    expect(corpus.texts.length).toBeGreaterThanOrEqual(50);
    expect(new Set(corpus.texts.map((t) => t.file)).size).toBeGreaterThanOrEqual(5);
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    expect(result.positives).toBeGreaterThanOrEqual(100);
    expect(pairs.length - result.positives).toBeGreaterThanOrEqual(100);
    const categories = new Set(pairs.map((p) => p.category));
    for (const c of [...POSITIVE_CATEGORIES, ...NEGATIVE_CATEGORIES]) expect(categories, c).toContain(c);
    expect(new Set(pairs.map((p) => p.id)).size).toBe(pairs.length);
  });

  it('is deterministic: the same seed builds the same pairs', () => {
    expect(buildCopyPairs(corpus)).toEqual(pairs);
    expect(buildCopyPairs(corpus, 7)).not.toEqual(pairs);
  });

  it('negatives are different documents: no negative pair was made from one text', () => {
    for (const p of pairs.filter((x) => !x.copy)) expect(p.a, p.id).not.toBe(p.b);
  });

  it('meets precision ≥ 0.95 and recall ≥ 0.90', () => {
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('finds ≥ 95% of the copies as band-key candidates, and nearly every pair it judges a copy', () => {
    expect(result.lshRecall).toBeGreaterThanOrEqual(0.95);
    expect(result.lshRecallOfJudged).toBeGreaterThanOrEqual(0.95);
  });
});

function natural(list: readonly [string, string][]): { pairs: number; judged: number; inBand: number } {
  let judged = 0;
  let inBand = 0;
  for (const [a, b] of list) {
    const [sa, sb] = [copySignature(a), copySignature(b)];
    if (judgeCopy(sa, sb).probableCopy) judged++;
    const keys = new Set(bandKeys(sa));
    if (bandKeys(sb).some((k) => keys.has(k))) inBand++;
  }
  return { pairs: list.length, judged, inBand };
}

function naturalLine(label: string, n: { pairs: number; judged: number; inBand: number }): string {
  return `${n.pairs} ${label}, ${n.judged} judged copy, ${n.inBand} share a band`;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
}
