// Probable-copy detection (seed 000 §38.2): the ingest cost of copySignature + bandKeys per ~1 KB
// evidence text, against SHA-256 of the same content (what ingest already pays for the content
// hash) measured in the same run. Goal: well under 0.2 ms per item (ingest budget 1 ms at 100,000
// items). Also prints what the candidate check costs: decoding a stored signature and judging a pair.
import { createHash } from 'node:crypto';
import { bandKeys, copySignature, decodeSignature, encodeSignature, judgeCopy, COPY_BANDS, COPY_HASHES } from '../shared/domain/copies';
import { loadCopyCorpus, mulberry32 } from '../electron/testing/copyPairs';
import { medianMs, report } from './lib';

const ITEMS = Number(process.env.BENCH_COPY_ITEMS ?? 10_000);
const TARGET_CHARS = 1_000;

/** ~1 KB texts made of real sentences from the STIX examples, in seeded random order. */
function buildTexts(): string[] {
  const sentences = loadCopyCorpus().texts.flatMap((t) => t.text.split(/(?<=[.!?])\s+/)).filter((s) => s.length > 20);
  const rng = mulberry32(7);
  return Array.from({ length: ITEMS }, () => {
    let text = '';
    while (text.length < TARGET_CHARS) text += `${sentences[Math.floor(rng() * sentences.length)]!} `;
    return text.slice(0, TARGET_CHARS + 200).trim();
  });
}

function main(): void {
  const texts = buildTexts();
  const meanChars = texts.reduce((n, t) => n + t.length, 0) / texts.length;
  const perItemUs = (ms: number, n = texts.length) => (ms * 1000) / n;

  const sha = medianMs(() => texts.map((t) => createHash('sha256').update(t).digest('hex')), 9, 2);
  const signature = medianMs(() => texts.map((t) => copySignature(t)), 9, 2);
  const ingest = medianMs(() => texts.map((t) => bandKeys(copySignature(t))), 9, 2);
  report(`copySignature + bandKeys over ${ITEMS} texts of ~${Math.round(meanChars)} chars`, {
    ingest_us_per_item: perItemUs(ingest),
    signature_only_us: perItemUs(signature),
    baseline_sha256_us: perItemUs(sha),
    ratio_vs_sha256: ingest / sha,
    goal: perItemUs(ingest) < 200 ? 'under 0.2 ms: met' : 'under 0.2 ms: MISSED',
  });

  // What each candidate a band lookup returns costs: decode its stored signature and judge the pair.
  const sigs = texts.slice(0, 2_000).map((t) => copySignature(t));
  const encoded = sigs.map(encodeSignature);
  const decode = medianMs(() => encoded.map(decodeSignature), 9, 2);
  const judge = medianMs(() => sigs.map((s, i) => judgeCopy(s, sigs[(i + 1) % sigs.length]!)), 9, 2);
  const shingles = sigs.map((s) => s.shingles).sort((a, b) => a - b);
  report('per candidate', {
    decode_us: perItemUs(decode, encoded.length),
    judge_us: perItemUs(judge, sigs.length),
    band_keys_per_item: COPY_BANDS,
    minhash_values: COPY_HASHES,
    encoded_chars: encoded[0]!.length,
    median_shingles: shingles[Math.floor(shingles.length / 2)]!,
  });
}

main();
