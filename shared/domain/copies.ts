/**
 * Probable-copy detection for independent corroboration (seed 000 §38.2). Two evidence items that
 * repeat the same vendor report count as one source until a reviewer says otherwise, even when no
 * provenance edge links them. The copy may be re-headed, truncated, re-ordered, re-formatted or
 * lightly paraphrased, so exact hashes miss it; a MinHash signature over word-pair shingles finds it.
 *
 * Pipeline: normalise → sentences → content words → word-pair shingles → MinHash → LSH band keys.
 * - Normalisation: NFKC; invisible format characters dropped (a zero-width space must not split a
 *   word); mail header lines and "Fwd:" markers dropped (the envelope a copy travels in); markup
 *   tags dropped (a copy re-wrapped in HTML is still a copy); lower case. Words are runs of letters
 *   and digits, and identifiers such as "60.10.1.118" or "docs.google.com" stay one word. Stop and
 *   filler words are dropped and a light suffix stemmer folds inflections, so "the backdoor
 *   communicates" and "backdoors communicated" agree. Negations are kept: "is malicious" and "is not
 *   malicious" are not the same evidence.
 * - Shingles: each pair of adjacent content words inside one sentence, unordered. Staying inside a
 *   sentence makes re-ordered sentences give exactly the same set; unordered pairs absorb swapped
 *   neighbours ("uploading and downloading"). A one-word sentence gives that word as a shingle.
 *   Pairs rather than triples: a substituted word breaks two shingles instead of three, which is
 *   what keeps light paraphrase above the containment bar.
 * - MinHash: COPY_HASHES minima under seeded murmur3 finalisers (Math.imul only), so a signature is
 *   the same on every machine and in the renderer. No node:crypto: shared/ runs in the browser too.
 */

import { copyShingles, fmix32 } from './copyShingles';

/** LSH bands: a pair is a candidate when all COPY_ROWS values of at least one band agree. */
export const COPY_BANDS = 42;
export const COPY_ROWS = 3;
export const COPY_HASHES = COPY_BANDS * COPY_ROWS;

/**
 * Fewer distinct shingles than this on the shorter side is never a copy: short notes such as
 * "beacon to 10.1.2.3 observed from host ws-12" are written independently all the time, and an
 * estimate over a handful of shingles is too coarse to mean anything. 8 word pairs is about one
 * full sentence (9 content words, 15–20 words of running text).
 */
export const MIN_COPY_SHINGLES = 8;

/**
 * Share of the shorter text's shingles that must also appear in the other. Above one half, so a
 * text that shares a boilerplate paragraph with another is not a copy, with a margin of about two
 * standard errors of the estimate (≈0.045 at 126 hashes near 0.5).
 */
export const COPY_MIN_CONTAINMENT = 0.6;

/**
 * Jaccard floor: the shorter text must also be a sizeable part of the longer one. A quote inside a
 * long report has containment 1 but Jaccard near 0; the band index selects by Jaccard and cannot
 * find such pairs, and a verdict the index cannot reproduce would depend on which pairs happened
 * to be compared. With 42 bands of 3 rows, a pair whose estimate just reaches this floor (51 of 126
 * values agree) shares a band key with probability 0.965, and 0.94 at a true Jaccard of 0.4 (see
 * bandHitProbability). A 60% truncation has Jaccard 0.6, a same-length text at the containment
 * bar about 0.43.
 */
export const COPY_MIN_JACCARD = 0.4;

export interface CopySignature {
  /** Distinct shingle count of the normalised text. */
  shingles: number;
  /** COPY_HASHES unsigned 32-bit minima. */
  minhash: number[];
}

export interface CopyJudgement {
  probableCopy: boolean;
  jaccard: number;
  containment: number;
  reason: string;
}

export function copySignature(content: string): CopySignature {
  const shingles = copyShingles(content);
  const minhash = new Uint32Array(COPY_HASHES).fill(0xffffffff);
  for (const shingle of shingles) {
    // Stryker disable next-line EqualityOperator: `<=` adds a round past the typed array's end, which reads undefined and writes nothing
    for (let i = 0; i < COPY_HASHES; i++) {
      const v = fmix32(shingle ^ SEEDS[i]!);
      // Stryker disable next-line EqualityOperator: `<=` writes the same value again when equal
      if (v < minhash[i]!) minhash[i] = v;
    }
  }
  return { shingles: shingles.size, minhash: Array.from(minhash) };
}

/** One key per band, e.g. "b07:9f2c1a7e": the LSH bucket an ingest index stores and looks up. */
export function bandKeys(sig: CopySignature): string[] {
  assertShape(sig, 'bandKeys');
  const keys: string[] = [];
  for (let band = 0; band < COPY_BANDS; band++) {
    let h = Math.imul(band + 1, 0x9e3779b1);
    for (let row = 0; row < COPY_ROWS; row++) h = fmix32(Math.imul(h ^ sig.minhash[band * COPY_ROWS + row]!, 0x01000193));
    keys.push(BAND_PREFIX[band] + hex8(h));
  }
  return keys;
}

const BAND_PREFIX = Array.from({ length: COPY_BANDS }, (_, band) => `b${String(band).padStart(2, '0')}:`);

/** Probability that a pair with this Jaccard similarity shares at least one band key. */
export function bandHitProbability(jaccard: number): number {
  return 1 - (1 - jaccard ** COPY_ROWS) ** COPY_BANDS;
}

const SIGNATURE_PREFIX = `mh1.${COPY_BANDS}x${COPY_ROWS}`;
const BODY_CHARS = Math.ceil((COPY_HASHES * 32) / 6);
const SIGNATURE_BODY = new RegExp(`^[A-Za-z0-9_-]{${BODY_CHARS}}$`);

/**
 * "mh1.42x3.<shingles>.<base64url of the minima, big-endian>". The scheme and band layout are in
 * the text so a signature stored by a build with other parameters is refused, not misread.
 */
export function encodeSignature(sig: CopySignature): string {
  assertShape(sig, 'encodeSignature');
  const bytes = new Uint8Array(COPY_HASHES * 4);
  sig.minhash.forEach((v, i) => {
    bytes[i * 4] = v >>> 24;
    bytes[i * 4 + 1] = (v >>> 16) & 0xff;
    bytes[i * 4 + 2] = (v >>> 8) & 0xff;
    bytes[i * 4 + 3] = v & 0xff;
  });
  return `${SIGNATURE_PREFIX}.${sig.shingles}.${toBase64Url(bytes)}`;
}

export function decodeSignature(text: string): CopySignature {
  function fail(why: string): never {
    throw new Error(`decodeSignature: ${why}; expected "${SIGNATURE_PREFIX}.<shingles>.<base64url>" from encodeSignature (recompute it with copySignature)`);
  }
  const parts = text.split('.');
  if (parts.length !== 4) fail(`malformed signature "${text.slice(0, 24)}…" (${parts.length} dot-separated parts, not 4)`);
  const [scheme, layout, count, body] = parts as [string, string, string, string];
  if (`${scheme}.${layout}` !== SIGNATURE_PREFIX) fail(`signature scheme "${scheme}.${layout}" is not this build's`);
  if (!/^(0|[1-9]\d{0,8})$/.test(count)) fail(`shingle count "${count.slice(0, 20)}" is not a non-negative integer`);
  if (!SIGNATURE_BODY.test(body)) fail(`body is not ${BODY_CHARS} base64url characters (${COPY_HASHES} 32-bit values)`);
  const bytes = fromBase64Url(body);
  const minhash: number[] = [];
  for (let i = 0; i < COPY_HASHES * 4; i += 4) {
    minhash.push(((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0);
  }
  return { shingles: Number(count), minhash };
}

export function judgeCopy(a: CopySignature, b: CopySignature): CopyJudgement {
  assertShape(a, 'judgeCopy');
  assertShape(b, 'judgeCopy');
  const smaller = Math.min(a.shingles, b.shingles);
  const larger = Math.max(a.shingles, b.shingles);
  if (smaller === 0) {
    return { probableCopy: false, jaccard: 0, containment: 0, reason: 'Not compared: one text has no words to compare.' };
  }
  let agree = 0;
  for (let i = 0; i < COPY_HASHES; i++) if (a.minhash[i] === b.minhash[i]) agree++;
  const jaccard = agree / COPY_HASHES;
  // |A∩B| = J·(|A|+|B|)/(1+J); containment relative to the shorter text.
  const containment = Math.min(1, (jaccard * (a.shingles + b.shingles)) / (1 + jaccard) / smaller);
  const shared = `about ${pct(containment)} of the shorter text's word pairs also appear in the other (estimated)`;
  const verdict = (probableCopy: boolean, reason: string): CopyJudgement => ({ probableCopy, jaccard, containment, reason });

  if (smaller < MIN_COPY_SHINGLES) {
    return verdict(false, `Too short to call a copy: the shorter text has ${smaller} distinct word pairs, fewer than the ${MIN_COPY_SHINGLES} needed; ${shared}.`);
  }
  if (containment < COPY_MIN_CONTAINMENT) {
    return containment < 0.25
      ? verdict(false, `Different content: only ${shared}.`)
      : verdict(false, `Shares some passages but is not a copy: ${shared}, below the ${pct(COPY_MIN_CONTAINMENT)} needed.`);
  }
  // Stryker disable next-line EqualityOperator: J is a multiple of 1/126, never exactly 0.4, so < and <= agree.
  if (jaccard < COPY_MIN_JACCARD) {
    return smaller / larger < 0.5
      ? verdict(false, `Excerpt, not a copy: ${shared}, but it is only about ${pct(smaller / larger)} as long as the other; a quoted passage is left to the reviewer.`)
      : verdict(false, `Overlapping, not a copy: ${shared}, but only ${pct(jaccard)} of the word pairs of both texts together are shared (${pct(COPY_MIN_JACCARD)} needed).`);
  }
  if (agree === COPY_HASHES && a.shingles === b.shingles) {
    return verdict(true, 'Same content: the texts read the same once case, spacing, punctuation, markup, mail headers and sentence order are set aside (estimated).');
  }
  return verdict(true, `Near-same content: ${shared}.`);
}

// Fixed seeds from splitmix32 over a constant: part of the signature format (changing them
// invalidates every stored signature, so bump "mh1" if they ever change).
const SEEDS: Uint32Array = (() => {
  const seeds = new Uint32Array(COPY_HASHES);
  let state = 0x2545f491;
  // Stryker disable next-line EqualityOperator: a round past the end writes seeds[126], which a typed array ignores.
  for (let i = 0; i < COPY_HASHES; i++) {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    seeds[i] = (z ^ (z >>> 15)) >>> 0;
  }
  return seeds;
})();

// --- helpers ------------------------------------------------------------------------------------------

function assertShape(sig: CopySignature, where: string): void {
  if (!Number.isSafeInteger(sig.shingles) || sig.shingles < 0 || sig.minhash.length !== COPY_HASHES) {
    throw new Error(`${where}: not a ${COPY_BANDS}x${COPY_ROWS} copy signature (${sig.minhash.length} values, ${sig.shingles} shingles); build it with copySignature or decodeSignature`);
  }
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

// Number#toString(16) is most of bandKeys' cost; a byte table is 7× faster.
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex8(x: number): string {
  return HEX_BYTE[x >>> 24]! + HEX_BYTE[(x >>> 16) & 0xff]! + HEX_BYTE[(x >>> 8) & 0xff]! + HEX_BYTE[x & 0xff]!;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_VALUE = new Uint8Array(128);
// Stryker disable next-line EqualityOperator: one step further writes B64_VALUE[NaN], which a typed array ignores.
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;

function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  // Stryker disable next-line EqualityOperator: a step at the end reads no byte and writes no character (0 characters for 0 bytes left).
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    // Stryker disable next-line ArithmeticOperator: a signature is 504 bytes, a multiple of 3, so every group is whole and takes 4 characters; the count matters only for other lengths.
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += B64[(n >>> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Decodes text already checked against SIGNATURE_BODY. */
function fromBase64Url(text: string): Uint8Array {
  // Stryker disable next-line ArithmeticOperator: a longer array only adds zero bytes after the 504 that are read.
  const bytes = new Uint8Array(Math.floor((text.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  // Stryker disable next-line EqualityOperator: a step past the end adds no whole byte inside the array (a write past a typed array's end is ignored).
  for (let i = 0; i < text.length; i++) {
    acc = ((acc << 6) | B64_VALUE[text.charCodeAt(i)]!) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[j++] = (acc >>> bits) & 0xff;
    }
  }
  return bytes;
}

/**
 * The band keys as integers (band × 2³² + the band's 32-bit hash): what the case file indexes.
 * An integer key is a third of the text key's size in an index of 42 rows per item.
 */
export function bandBuckets(sig: CopySignature): number[] {
  return bandKeys(sig).map((key, band) => band * 2 ** 32 + parseInt(key.slice(key.indexOf(':') + 1), 16));
}

/**
 * Kinds whose content is a machine's record of one observation (an EDR event, a log line, a tool
 * run, a forensic artifact). Records from one template read alike by design: two EDR events on
 * two hosts share almost every word pair and are still two observations. Between such records
 * only identical content (the same record exported twice) is a copy; near-same wording is the
 * copying failure of reports, notes and summaries that people and agents write (seed 000 §38.2).
 */
export const MACHINE_RECORD_KINDS: ReadonlySet<string> = new Set(['telemetry', 'log_record', 'forensic_artifact', 'tool_result']);

export interface CopyParty {
  kind: string;
  contentSha256: string;
  signature: CopySignature;
}

/** The copy verdict between two revisions: near-same wording between reports, identical content where a machine record is involved. */
export function judgeCopyBetween(a: CopyParty, b: CopyParty): CopyJudgement {
  if (!MACHINE_RECORD_KINDS.has(a.kind) && !MACHINE_RECORD_KINDS.has(b.kind)) return judgeCopy(a.signature, b.signature);
  if (a.contentSha256 === b.contentSha256) {
    return { probableCopy: true, jaccard: 1, containment: 1, reason: 'Identical content: the same machine record, exported twice.' };
  }
  const near = judgeCopy(a.signature, b.signature);
  return { ...near, probableCopy: false, reason: `Machine records from one template are separate observations unless identical. ${near.reason}` };
}
