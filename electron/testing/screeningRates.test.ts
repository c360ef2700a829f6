import { beforeAll, describe, expect, it } from 'vitest';
import { MALICIOUS_SAMPLES } from '../../shared/domain/injection.corpus';
import { screenContent, type InjectionMatch } from '../../shared/domain/injection';
import { loadBenignTexts, type BenignCorpus, type BenignText } from './benignTexts';

/**
 * How often the quarantine verdict is wrong on real text (DESIGN §3.1): the false-positive rate on
 * benign real-world texts, and recall on the labelled malicious corpus. Goals: at most 0.05% of
 * benign texts quarantined, overall and per source, and every malicious sample quarantined.
 */

const MAX_FALSE_POSITIVE_RATE = 0.0005;
const MIN_BENIGN_TEXTS = 5_000;
/** Each source must really have been read; these are well under what each holds. */
const MIN_PER_SOURCE: Readonly<Record<string, number>> = { 'stix-bundles': 2_000, 'stix-schemas': 500, wordnet: 100_000 };

const count = (n: number): string => n.toLocaleString('en-US');
const percent = (n: number, of: number): string => `${((100 * n) / of).toFixed(3)}%`;

type Screened = BenignText & { matches: InjectionMatch[] };

let corpus: BenignCorpus;
let quarantined: Screened[];
let noticed: Screened[];
let caught: number;

beforeAll(() => {
  corpus = loadBenignTexts();
  quarantined = [];
  noticed = [];
  for (const t of corpus.texts) {
    const r = screenContent(t.text);
    if (r.flagged) quarantined.push({ ...t, matches: r.matches });
    else if (r.notices.length > 0) noticed.push({ ...t, matches: r.notices });
  }
  caught = MALICIOUS_SAMPLES.filter((s) => screenContent(s.text).flagged).length;
});

describe('screening rates on real text', () => {
  it('reads every source and has enough texts', () => {
    for (const s of corpus.sources) {
      expect(s.files, `${s.name}: no files read (${s.description})`).toBeGreaterThan(0);
      expect(s.texts, `${s.name}: too few texts (${s.description})`).toBeGreaterThanOrEqual(MIN_PER_SOURCE[s.name] ?? 1);
    }
    expect(corpus.texts.length).toBeGreaterThanOrEqual(MIN_BENIGN_TEXTS);
  });

  it(`quarantines at most ${MAX_FALSE_POSITIVE_RATE * 100}% of benign texts and every malicious sample`, () => {
    const of = (list: readonly Screened[], source: string): number => list.filter((q) => q.source === source).length;
    const shown = (q: Screened): string => `${q.source} ${q.ref}: ${q.matches.map((m) => `${m.patternId} «${m.excerpt}»`).join('; ')}`;
    console.log(
      [
        `screening: ${count(corpus.texts.length)} benign texts, ${count(quarantined.length)} quarantined (${percent(quarantined.length, corpus.texts.length)}); malicious corpus ${caught}/${MALICIOUS_SAMPLES.length} quarantined`,
        ...corpus.sources.map(
          (s) => `  ${s.name}: ${count(s.texts)} texts from ${count(s.files)} files, ${of(quarantined, s.name)} quarantined (${percent(of(quarantined, s.name), s.texts)}), ${of(noticed, s.name)} with a notice — ${s.description}`,
        ),
        ...quarantined.map((q) => `  quarantined ${shown(q)}`),
        ...noticed.map((q) => `  notice, not quarantined: ${shown(q)}`),
      ].join('\n'),
    );

    expect(caught).toBe(MALICIOUS_SAMPLES.length);
    expect(quarantined.length / corpus.texts.length).toBeLessThanOrEqual(MAX_FALSE_POSITIVE_RATE);
    for (const s of corpus.sources) {
      expect(of(quarantined, s.name) / s.texts, `${s.name}: ${of(quarantined, s.name)} of ${s.texts} quarantined`).toBeLessThanOrEqual(MAX_FALSE_POSITIVE_RATE);
    }
  });
});
