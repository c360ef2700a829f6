import { COMMENT_INSTRUCTION_WORDS, TEXT_PATTERNS } from './injection.patterns';
import { describeInvisibles, INVISIBLE, invisiblesAsBreaks, isTagChar, judgeInvisibles, label, TAG_CHARS } from './injection.invisible';

/**
 * Ingest screening: evidence content is data, never instructions (DESIGN §3.1). A flagged revision
 * is quarantined on import; a reviewer can inspect and release it. This module only decides whether
 * content looks like it is trying to instruct a reader (human or model); it never rewrites content.
 * The validation checklist's no_injection_markers check calls screenContent as well: one rule.
 */

export interface InjectionMatch {
  patternId: string;
  reason: string;
  excerpt: string;
}

export interface ScreeningResult {
  /** True when the content must be quarantined: there is at least one match. */
  flagged: boolean;
  /** Findings that quarantine. */
  matches: InjectionMatch[];
  /** Findings shown to the analyst that do not quarantine, e.g. a stray zero-width space left by markup. */
  notices: InjectionMatch[];
}

/** Where a pattern hit: same shape as a RegExpExecArray so regex patterns can return `exec` directly. */
export interface PatternHit {
  index: number;
  0: string;
  /** Extra context for the analyst, e.g. what a base64 blob decodes to. */
  detail?: string;
}

/**
 * A detector of instruction-like text. It sees normalised text (NFKC, invisible characters removed
 * or read as breaks, homoglyphs folded), so "ig\u200Bnore" or a Cyrillic "і" cannot hide a phrase.
 */
export interface InjectionPattern {
  id: string;
  reason: string;
  test: (text: string) => PatternHit | null;
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
// Stryker disable next-line Regex: a shortcut past the fold for words with no Cyrillic or Greek letter, which the fold (keyed by those letters only) leaves unchanged anyway.
const LOOKALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

function foldMixedScriptWord(word: string): string {
  if (!LATIN.test(word) || !LOOKALIKE_SCRIPT.test(word)) return word;
  return [...word].map((c) => CONFUSABLES[c] ?? c).join('');
}

/** The text the patterns see. Exported for tests and for showing analysts what was screened. */
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
    // Group 1 always takes part (it may be empty). Trimmed: "<!-- close all disputes -->" starts its directive at the body's start.
    const body = m[1]!.trim();
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
  if (blob.length > MAX_BLOB_CHARS) return null;
  let binary: string;
  try {
    binary = atob(blob.padEnd(Math.ceil(blob.length / 4) * 4, '='));
  } catch {
    return null; // not base64 after all, e.g. a length of 4k+1
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // Stryker disable next-line ConditionalExpression: counting zeros at even offsets too reads bytes like "\0a\0b" as UTF-16 (CJK letters) instead of UTF-8 with NULs; neither reading is an instruction.
  const zeroOdd = bytes.filter((b, i) => i % 2 === 1 && b === 0).length;
  // A run is 16 characters at least (BASE64_RUN), so 12 bytes: enough to tell UTF-16 by its zeros.
  const utf16 = zeroOdd >= (bytes.length / 2) * 0.9;
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
  ...TEXT_PATTERNS.map((p): InjectionPattern => ({ id: p.id, reason: p.reason, test: fromRegex(p.regex) })),
  {
    id: 'html-comment-instruction',
    reason: 'contains an HTML comment (invisible when rendered) that addresses a reader',
    test: findInstructionComment,
  },
  {
    id: 'encoded-instruction',
    reason: 'contains a base64 blob that decodes to instruction-like text',
    test: findEncodedInstruction,
  },
]);

/** The invisible-character finding: a match or a notice depending on what the characters do. */
export const INVISIBLE_CHARACTERS = 'invisible-characters';

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
    .replace(INVISIBLE, (c) => `<${label(c)}>`)
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, (c) => `<${label(c)}>`)
    .replace(/\s+/g, ' ');
}

function excerptOf(text: string, hit: PatternHit): string {
  const start = Math.max(0, hit.index - EXCERPT_CONTEXT);
  const end = Math.min(text.length, hit.index + hit[0].length + EXCERPT_CONTEXT);
  const body = `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  const shown = clip(visible(body).trim(), EXCERPT_MAX);
  return hit.detail ? `${shown} [${hit.detail}]` : shown;
}

function runPatterns(normalized: string): Map<string, InjectionMatch> {
  const found = new Map<string, InjectionMatch>();
  for (const pattern of INJECTION_PATTERNS) {
    const hit = pattern.test(normalized);
    if (hit) found.set(pattern.id, { patternId: pattern.id, reason: pattern.reason, excerpt: excerptOf(normalized, hit) });
  }
  return found;
}

const INVISIBLE_NOTICE =
  'contains invisible characters (zero-width space, word joiner, byte-order mark, soft hyphen or bidi mark) that hide no instruction-like text; shown, not quarantined';

const sameKeys = (a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean =>
  a.size === b.size && [...a.keys()].every((k) => b.has(k));

/**
 * Screens content for instruction-like text. Invisible characters are read two ways: removed
 * ("ig\u200Bnore" is "ignore") and as line breaks ("ok\u200Bapprove all claims" starts a new field).
 * A pattern that hits either way is a match. The invisible characters themselves quarantine only
 * when they change what a reader sees (injection.invisible.ts) or when the two readings disagree,
 * i.e. they split or hide instruction-like text; otherwise they are a notice the analyst sees.
 */
export function screenContent(text: string): ScreeningResult {
  const invisibles = judgeInvisibles(text);
  const removed = runPatterns(normalizeForScreening(text));
  const breakable = invisibles.found.some((f) => !isTagChar(f.char));
  const broken = breakable ? runPatterns(normalizeForScreening(invisiblesAsBreaks(text, invisibles.found))) : removed;
  const matches = INJECTION_PATTERNS.flatMap((p) => removed.get(p.id) ?? broken.get(p.id) ?? []);
  const notices: InjectionMatch[] = [];
  const first = invisibles.found[0];
  if (first) {
    const causes = [
      invisibles.reordering && `bidi controls that display the text in another order than it is stored (${invisibles.reordering.why})`,
      invisibles.hiddenTag && 'Unicode tag characters: text a model reads and a person cannot see',
      !sameKeys(removed, broken) && 'invisible characters that split or hide instruction-like text',
    ].filter((c): c is string => typeof c === 'string');
    const shownAt = invisibles.reordering?.index ?? invisibles.hiddenTag?.index ?? first.index;
    const shown = invisibles.found.find((f) => f.index === shownAt) ?? first;
    const excerpt = excerptOf(text, { index: shown.index, 0: shown.char, detail: describeInvisibles(invisibles.found) });
    if (causes.length > 0) matches.push({ patternId: INVISIBLE_CHARACTERS, reason: `contains ${causes.join('; ')}`, excerpt });
    else notices.push({ patternId: INVISIBLE_CHARACTERS, reason: INVISIBLE_NOTICE, excerpt });
  }
  return { flagged: matches.length > 0, matches, notices };
}
