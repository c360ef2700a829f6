/**
 * The text side of probable-copy detection (copies.ts): normalisation, content words and the
 * word-pair shingles a MinHash signature is taken over, hashed to 32 bits. Pure and
 * deterministic, so a signature is the same on every machine and in the renderer.
 */
// --- normalisation and shingles -------------------------------------------------------------------

const INVISIBLE = /\p{Cf}/gu;
// Transport envelope, not content: mail header lines and forwarding markers that feeds and
// mailboxes put around a copy. Matched per line, so quoted headers inside a thread go too.
const ENVELOPE_LINE = /^[ \t>]*(?:(?:from|to|cc|bcc|date|sent|subject|reply-to):[^\n]*|-{2,}[ \t]*(?:forwarded|original) message[ \t]*-{2,})[ \t]*$/gim;
const FORWARD_PREFIX = /^[ \t>]*(?:fwd?|re):[ \t]*/gim;
const MARKUP_TAG = /<\/?[a-z!?][^<>]{0,300}>/gi;
const HTML_ENTITY = /&(?:[a-z]{2,8}|#\d{1,6}|#x[0-9a-f]{1,5});/gi;
// One pass over the text: a match is either a word (group 1) or a sentence end. A sentence ends at
// . ! ? ; followed by space (the last of a run such as "?!"; the text's end ends one anyway), or at a
// blank line; dots inside "docs.google.com" or "2.0" do not end one. Identifiers stay whole:
// "60.10.1.118", "docs.google.com", "gwx@123" are one token each, so a list of addresses does not
// turn into dozens of generic number pairs.
const TOKEN = /([\p{L}\p{N}]+(?:[._@:/][\p{L}\p{N}]+)*)|[.!?;](?=\s)|\n\s*\n/gu;
// The same tokens when every letter and digit is ASCII (after lower-casing, \p{L} is then [a-z]
// and \p{N} is [0-9]; curly quotes and dashes are neither), without the Unicode property lookups
// that make TOKEN 4× slower.
const ASCII_TOKEN = /([a-z0-9]+(?:[._@:/][a-z0-9]+)*)|[.!?;](?=\s)|\n\s*\n/g;
// Stryker disable next-line Regex: ASCII or not, a text gives the same tokens; ASCII text only skips NFKC and the slower tokenizer.
const NON_ASCII = /[^\x00-\x7f]/g;
// Tested on one UTF-16 unit at a time (hasNonAsciiLetterOrDigit).
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

// Function words and fillers: they carry no content and paraphrase adds or drops them freely.
// Negations ("no", "not", "never", "without") are deliberately absent.
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each either else ever few for from further had has have having he her here hers ' +
    'herself him himself his how however i if in into is it its itself just let may me might more most must my myself neither ' +
    'nor now of off on once only or other our ours ourselves out over own per quite rather really same shall she should so ' +
    'some such than that the their theirs them themselves then there these they this those through thus to too under until ' +
    'up upon us very via was we were what when where whether which while who whom whose why will with would yet you your ' +
    'yours yourself yourselves actually basically essentially generally typically usually simply indeed furthermore moreover ' +
    'additionally therefore hence etc'
  ).split(' '),
);

/** Normalised content tokens of one text, sentence by sentence (exported for tests and tooling). */
export function contentSentences(content: string): string[][] {
  // NFKC and invisible characters only concern non-ASCII text; skipping them for ASCII is exact.
  const ascii = !hasNonAscii(content);
  const folded = ascii ? content : content.normalize('NFKC').replace(INVISIBLE, '');
  const text = folded
    .replace(ENVELOPE_LINE, '')
    .replace(FORWARD_PREFIX, '')
    .replace(MARKUP_TAG, ' ')
    .replace(HTML_ENTITY, ' ')
    .toLowerCase();
  // Stryker disable next-line LogicalOperator: TOKEN gives the same tokens as ASCII_TOKEN wherever the latter is chosen, only slower.
  const tokenRe = ascii || !hasNonAsciiLetterOrDigit(text) ? ASCII_TOKEN : TOKEN;
  const sentences: string[][] = [];
  let tokens: string[] = [];
  tokenRe.lastIndex = 0;
  for (let m = tokenRe.exec(text); m !== null; m = tokenRe.exec(text)) {
    const word = m[1];
    if (word === undefined) {
      if (tokens.length > 0) sentences.push(tokens);
      tokens = [];
    } else if (!STOP_WORDS.has(word) && (word.length > 1 || word <= '9')) {
      // Single letters ("s" of "google's", list markers) carry nothing; single digits do. A
      // one-character token is a letter or a digit, and only ASCII digits sort at or below "9".
      tokens.push(stem(word));
    }
  }
  if (tokens.length > 0) sentences.push(tokens);
  return sentences;
}

function hasNonAscii(text: string): boolean {
  NON_ASCII.lastIndex = 0;
  return NON_ASCII.test(text);
}

// Curly quotes and dashes are common and are not word characters: only a non-ASCII letter or digit
// needs the slower Unicode tokenizer.
function hasNonAsciiLetterOrDigit(text: string): boolean {
  NON_ASCII.lastIndex = 0;
  for (let m = NON_ASCII.exec(text); m !== null; m = NON_ASCII.exec(text)) if (LETTER_OR_DIGIT.test(m[0])) return true;
  // Stryker disable next-line BooleanLiteral: true sends quote- and dash-only text to TOKEN, which gives the same tokens, only slower.
  return false;
}

/**
 * Light suffix stripping: plurals, -ed, -ing, -ly and a final -e, so inflected forms of one word
 * meet. Not Porter: it only has to be the same on both sides, and it leaves short words, numbers
 * and identifiers alone.
 */
function stem(word: string): string {
  if (word.length <= 3) return word;
  // Tokens hold [a-z], non-ASCII letters and digits, and [0-9._@:/]: everything below "a" is a
  // digit or identifier punctuation, and such tokens are left alone.
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) < 0x61) return word;
  let w = word;
  // "-sses" needs no rule of its own: "classes" loses its -s here and its final -e below.
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('ly') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** The distinct shingle hashes of a text: what the MinHash summarises (exported for tests). */
export function copyShingles(content: string): Set<number> {
  const out = new Set<number>();
  for (const tokens of contentSentences(content)) {
    const hashes = tokens.map(fnv1a);
    if (hashes.length === 1) out.add(fmix32(hashes[0]! ^ 0x5bd1e995));
    for (let i = 1; i < hashes.length; i++) {
      const x = hashes[i - 1]!;
      const y = hashes[i]!;
      // Unordered pair: "(lo, hi)" by hash value, so "loader dll" and "dll loader" are one shingle.
      // Stryker disable EqualityOperator: with x === y, either order gives the same pair.
      const lo = x < y ? x : y;
      const hi = x < y ? y : x;
      // Stryker restore EqualityOperator
      out.add(fmix32(Math.imul(lo, 0x9e3779b1) ^ hi));
    }
  }
  return out;
}

// --- 32-bit hashing ---------------------------------------------------------------------------------

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h);
}

/** murmur3's finaliser: a bijection on 32-bit ints with full avalanche. Returns an unsigned value. */
export function fmix32(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
