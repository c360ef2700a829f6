import { COMMENT_INSTRUCTION_WORDS, TEXT_PATTERNS } from './injection.patterns';

/**
 * Ingest screening: evidence content is data, never instructions (DESIGN §3.1). A flagged revision
 * is quarantined on import; a reviewer can inspect and release it. This module only decides whether
 * content looks like it is trying to instruct a reader (human or model); it never rewrites content.
 */

export interface InjectionMatch {
  patternId: string;
  reason: string;
  excerpt: string;
}

/** Where a pattern hit: same shape as a RegExpExecArray so regex patterns can return `exec` directly. */
export interface PatternHit {
  index: number;
  0: string;
  /** Extra context for the analyst, e.g. what a base64 blob decodes to. */
  detail?: string;
}

export interface InjectionPattern {
  id: string;
  reason: string;
  /**
   * 'raw' sees the content as stored (the invisible characters are themselves the finding);
   * 'normalized' sees NFKC text with invisible characters removed and homoglyphs folded, so
   * "ig\u200Bnore" or a Cyrillic "і" cannot hide a phrase.
   */
  input: 'raw' | 'normalized';
  test: (text: string) => PatternHit | null;
}

// Zero-width, bidi embedding/override/isolate, invisible operators, BOM, Mongolian vowel separator,
// soft hyphen. The isolates (U+2066-2069) are the "Trojan Source" characters.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu;
const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
// Pictographs plus the variation selector and skin-tone modifiers that sit next to ZWJ in emoji sequences.
const EMOJI_PART = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
// Scripts whose orthography uses ZWNJ/ZWJ between letters (Persian, Urdu, Indic, Sinhala).
const JOINER_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]/u;

/**
 * Legitimate uses of otherwise-flagged invisibles: a byte-order mark at offset 0 (CSV/log exports),
 * ZWJ inside emoji sequences, and ZWNJ/ZWJ between letters of scripts that need them.
 */
function isLegitimateInvisible(text: string, index: number, char: string): boolean {
  if (char === '\uFEFF') return index === 0;
  if ((char !== '\u200C' && char !== '\u200D') || index === 0) return false;
  const before = String.fromCodePoint(text.codePointAt(previousCodePointStart(text, index)) ?? 0);
  const after = String.fromCodePoint(text.codePointAt(index + 1) ?? 0);
  if (char === '\u200D' && EMOJI_PART.test(before) && EMOJI_PART.test(after)) return true;
  return JOINER_SCRIPT.test(before) && JOINER_SCRIPT.test(after);
}

function previousCodePointStart(text: string, index: number): number {
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return index - 2;
  }
  return index - 1;
}

function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function findInvisible(text: string): PatternHit | null {
  const found = new Map<string, number>();
  let first: { index: number; char: string } | null = null;
  for (const m of text.matchAll(INVISIBLE)) {
    if (isLegitimateInvisible(text, m.index, m[0])) continue;
    const label = codePointLabel(m[0]);
    found.set(label, (found.get(label) ?? 0) + 1);
    first ??= { index: m.index, char: m[0] };
  }
  if (first === null) return null;
  const detail = [...found].map(([label, n]) => (n > 1 ? `${label} ×${n}` : label)).join(', ');
  return { index: first.index, 0: first.char, detail };
}

// Cyrillic/Greek letters that render like Latin ones. Only applied inside words that already mix
// Latin with these scripts, so ordinary Russian or Greek text is left untouched.
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd',
  һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w', к: 'k', м: 'm', н: 'h', т: 't',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I',
  Ј: 'J', Ѕ: 'S',
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X',
};
const WORD = /[\p{L}\p{M}]+/gu;
const LATIN = /[A-Za-z]/;
const LOOKALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

function foldMixedScriptWord(word: string): string {
  if (!LATIN.test(word) || !LOOKALIKE_SCRIPT.test(word)) return word;
  return [...word].map((c) => CONFUSABLES[c] ?? c).join('');
}

/** The text the 'normalized' patterns see. Exported for tests and for showing analysts what was screened. */
export function normalizeForScreening(text: string): string {
  return (
    text
      // Unicode tag characters mirror ASCII ("ASCII smuggling"); decode them so hidden text is screened.
      .replace(TAG_CHARS, (c) => {
        const cp = (c.codePointAt(0) ?? 0) - 0xe0000;
        return cp >= 0x20 && cp < 0x7f ? String.fromCharCode(cp) : '';
      })
      .normalize('NFKC')
      .replace(INVISIBLE, '')
      .replace(WORD, foldMixedScriptWord)
  );
}

// TEXT_PATTERNS regexes carry no 'g' flag, so exec/test are stateless and safe to share.
function fromRegex(regex: RegExp): (text: string) => PatternHit | null {
  return (text) => regex.exec(text);
}

const HTML_COMMENT = /<!--([\s\S]{0,2000}?)-->/g;

function findInstructionComment(text: string): PatternHit | null {
  for (const m of text.matchAll(HTML_COMMENT)) {
    const body = m[1] ?? '';
    if (COMMENT_INSTRUCTION_WORDS.test(body) || screenTextPatterns(body).length > 0) {
      return { index: m.index, 0: m[0] };
    }
  }
  return null;
}

const BASE64_RUN = /[A-Za-z0-9+/]{16,}={0,2}/g;
const MAX_BLOBS = 64;
const MAX_BLOB_CHARS = 65_536;

/** Decodes a base64 run to text if it is plausibly text (UTF-8 or UTF-16LE, as in `powershell -enc`). */
function decodeBase64Text(blob: string): string | null {
  if (blob.length > MAX_BLOB_CHARS || blob.replace(/=+$/, '').length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(blob.padEnd(Math.ceil(blob.length / 4) * 4, '='));
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const zeroOdd = bytes.filter((b, i) => i % 2 === 1 && b === 0).length;
  const utf16 = bytes.length >= 4 && zeroOdd >= (bytes.length / 2) * 0.9;
  const decoded = new TextDecoder(utf16 ? 'utf-16le' : 'utf-8').decode(bytes);
  const printable = [...decoded].filter((c) => /[\p{L}\p{N}\p{P}\p{Zs}\n\r\t]/u.test(c)).length;
  return printable >= decoded.length * 0.9 ? decoded : null;
}

function findEncodedInstruction(text: string): PatternHit | null {
  let seen = 0;
  for (const m of text.matchAll(BASE64_RUN)) {
    if (++seen > MAX_BLOBS) break;
    const decoded = decodeBase64Text(m[0]);
    if (decoded === null) continue;
    const inner = screenTextPatterns(normalizeForScreening(decoded));
    if (inner.length > 0) {
      return { index: m.index, 0: m[0], detail: `decodes to “${clip(decoded, 80)}” (${inner.join(', ')})` };
    }
  }
  return null;
}

export const INJECTION_PATTERNS: readonly InjectionPattern[] = Object.freeze([
  ...TEXT_PATTERNS.map(
    (p): InjectionPattern => ({ id: p.id, reason: p.reason, input: 'normalized', test: fromRegex(p.regex) }),
  ),
  {
    id: 'html-comment-instruction',
    reason: 'contains an HTML comment (invisible when rendered) that addresses a reader',
    input: 'normalized',
    test: findInstructionComment,
  },
  {
    id: 'invisible-characters',
    reason: 'contains zero-width, bidi-control or tag characters that hide or reorder text',
    input: 'raw',
    test: findInvisible,
  },
  {
    id: 'encoded-instruction',
    reason: 'contains a base64 blob that decodes to instruction-like text',
    input: 'normalized',
    test: findEncodedInstruction,
  },
]);

function screenTextPatterns(normalized: string): string[] {
  return TEXT_PATTERNS.filter((p) => p.regex.test(normalized)).map((p) => p.id);
}

const EXCERPT_CONTEXT = 30;
const EXCERPT_MAX = 160;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Makes invisible and control characters visible so the excerpt itself cannot hide anything. */
function visible(text: string): string {
  return text
    .replace(INVISIBLE, (c) => `<${codePointLabel(c)}>`)
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, (c) => `<${codePointLabel(c)}>`)
    .replace(/\s+/g, ' ');
}

function excerptOf(text: string, hit: PatternHit): string {
  const start = Math.max(0, hit.index - EXCERPT_CONTEXT);
  const end = Math.min(text.length, hit.index + hit[0].length + EXCERPT_CONTEXT);
  const body = `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  const shown = clip(visible(body).trim(), EXCERPT_MAX);
  return hit.detail ? `${shown} [${hit.detail}]` : shown;
}

export function screenContent(text: string): { flagged: boolean; matches: InjectionMatch[] } {
  const normalized = normalizeForScreening(text);
  const matches: InjectionMatch[] = [];
  for (const pattern of INJECTION_PATTERNS) {
    const input = pattern.input === 'raw' ? text : normalized;
    const hit = pattern.test(input);
    if (hit) matches.push({ patternId: pattern.id, reason: pattern.reason, excerpt: excerptOf(input, hit) });
  }
  return { flagged: matches.length > 0, matches };
}
