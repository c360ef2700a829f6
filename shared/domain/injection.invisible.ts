/**
 * Invisible characters in evidence (used by injection.ts). Markup leaves stray zero-width spaces,
 * word joiners and byte-order marks in ordinary prose, so an invisible character on its own is shown
 * to the analyst but does not quarantine. What does quarantine is what changes the text a reader
 * sees: bidi controls that reorder it, and tag characters that carry text nobody can see. Invisibles
 * that split or hide instruction-like text are judged in injection.ts, which screens the text both
 * with them removed and with them read as breaks.
 */

// Zero-width, bidi marks/embedding/override/isolate, invisible operators, BOM, Mongolian vowel
// separator, soft hyphen, Arabic letter mark. The isolates (U+2066-2069) are the "Trojan Source" characters.
export const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu;
export const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
export const isTagChar = (char: string): boolean => (char.codePointAt(0) ?? 0) >= 0xe0000;
// Pictographs plus the variation selector and skin-tone modifiers that sit next to ZWJ in emoji sequences.
const EMOJI_PART = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
// Scripts whose orthography uses ZWNJ/ZWJ between letters (Persian, Urdu, Indic, Sinhala).
const JOINER_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]/u;
// Subdivision flags (England, Scotland, Wales) are the one standard use of tag characters.
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const RTL_LETTER =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}]/u;
// Bidi embeddings, overrides and isolates end at a paragraph separator (UAX #9 X8).
const PARAGRAPH_END = /[\n\r\u001C-\u001E\u0085\u2029]/;

const LRE = '\u202A', RLE = '\u202B', PDF = '\u202C', LRO = '\u202D', RLO = '\u202E';
const LRI = '\u2066', RLI = '\u2067', FSI = '\u2068', PDI = '\u2069';
const EMBEDDINGS = new Set([LRE, RLE]);
const ISOLATES = new Set([LRI, RLI, FSI]);
const RIGHT_TO_LEFT = new Set([RLE, RLI]);

export interface InvisibleChar {
  index: number;
  char: string;
}

/**
 * What the invisible characters of a text do. Reordering and hidden tag text quarantine on their
 * own; anything else is a notice unless it splits or hides instruction-like text (see injection.ts).
 */
export interface InvisibleVerdict {
  /** Non-exempt invisible characters in order of appearance. */
  found: InvisibleChar[];
  /** A bidi control that makes the displayed order differ from the stored order, if any. */
  reordering: { index: number; why: string } | null;
  /** Tag characters outside an emoji flag: text a model reads and a person cannot see. */
  hiddenTag: InvisibleChar | null;
}

/**
 * Legitimate uses of otherwise-flagged invisibles: a byte-order mark at offset 0 (CSV/log exports),
 * ZWJ inside emoji sequences, ZWNJ/ZWJ between letters of scripts that need them, and tag
 * characters inside an emoji flag. These are not even worth a notice.
 */
function isLegitimateInvisible(text: string, index: number, char: string, flagRanges: readonly [number, number][]): boolean {
  if (char === '\uFEFF') return index === 0;
  if (isTagChar(char)) return flagRanges.some(([start, end]) => index >= start && index < end);
  if (char !== '\u200C' && char !== '\u200D') return false;
  // Stryker disable next-line ConditionalExpression: at 0 the letter before is read as U+0000, which joins nothing, so dropping this test returns false all the same; it says so here.
  if (index === 0) return false;
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

export function findInvisibles(text: string): InvisibleChar[] {
  const flagRanges = [...text.matchAll(EMOJI_TAG_SEQUENCE)].map((m): [number, number] => [m.index, m.index + m[0].length]);
  const found: InvisibleChar[] = [];
  for (const m of text.matchAll(INVISIBLE)) {
    if (!isLegitimateInvisible(text, m.index, m[0], flagRanges)) found.push({ index: m.index, char: m[0] });
  }
  return found;
}

/**
 * A bidi control reorders what a reader sees when it is an override (it forces an order against
 * the letters' own direction, as in "invoice_\u202Efdp.exe"), when an embedding or isolate is left
 * open to the end of its paragraph (Trojan Source), or when a right-to-left embedding or isolate
 * holds no right-to-left letter, so the only thing it can do is reverse left-to-right text. A closed
 * isolate around a name in Arabic or Hebrew prose, and the LRM/RLM marks, are ordinary bidi text.
 */
function findReordering(text: string, found: readonly InvisibleChar[]): { index: number; why: string } | null {
  // Stryker disable next-line ConditionalExpression: a shortcut for text with no opening control; the walk below finds nothing in such text either.
  if (!found.some((f) => EMBEDDINGS.has(f.char) || ISOLATES.has(f.char) || f.char === LRO || f.char === RLO)) return null;
  let open: InvisibleChar[] = [];
  const close = (opener: InvisibleChar, at: number) =>
    RIGHT_TO_LEFT.has(opener.char) && !RTL_LETTER.test(text.slice(opener.index + 1, at))
      ? { index: opener.index, why: `${label(opener.char)} reverses left-to-right text (no right-to-left letter inside)` }
      : null;
  // Stryker disable next-line EqualityOperator: one step past the end reads undefined, which is no control and changes nothing.
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (PARAGRAPH_END.test(c)) {
      if (open.length > 0) return { index: open[0]!.index, why: `${label(open[0]!.char)} is never closed, so it reorders the rest of the line` };
      continue;
    }
    if (c === LRO || c === RLO) return { index: i, why: `${label(c)} overrides the direction of the letters that follow` };
    if (EMBEDDINGS.has(c) || ISOLATES.has(c)) open.push({ index: i, char: c });
    else if (c === PDF && open.length > 0 && EMBEDDINGS.has(open.at(-1)!.char)) {
      const bad = close(open.pop()!, i);
      if (bad) return bad;
    } else if (c === PDI) {
      // A PDI closes the innermost isolate and every embedding opened inside it (UAX #9 X6a).
      const isolate = open.findLastIndex((o) => ISOLATES.has(o.char));
      if (isolate < 0) continue;
      for (const opener of open.slice(isolate).reverse()) {
        const bad = close(opener, i);
        if (bad) return bad;
      }
      open = open.slice(0, isolate);
    }
  }
  return open.length > 0 ? { index: open[0]!.index, why: `${label(open[0]!.char)} is never closed, so it reorders the rest of the text` } : null;
}

export function judgeInvisibles(text: string): InvisibleVerdict {
  const found = findInvisibles(text);
  return {
    found,
    reordering: findReordering(text, found),
    hiddenTag: found.find((f) => isTagChar(f.char)) ?? null,
  };
}

/** Replaces each non-exempt invisible character with a line break (exempt ones stay for NFKC/stripping). */
export function invisiblesAsBreaks(text: string, found: readonly InvisibleChar[]): string {
  let out = '';
  let at = 0;
  for (const f of found) {
    if (isTagChar(f.char)) continue; // tag characters are decoded, not broken: they are the hidden text itself
    out += `${text.slice(at, f.index)}\n`;
    at = f.index + f.char.length;
  }
  return out + text.slice(at);
}

export function label(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** "U+200B ×2, U+202E": what was found, for the analyst. */
export function describeInvisibles(found: readonly InvisibleChar[]): string {
  const counts = new Map<string, number>();
  for (const f of found) counts.set(label(f.char), (counts.get(label(f.char)) ?? 0) + 1);
  return [...counts].map(([l, n]) => (n > 1 ? `${l} ×${n}` : l)).join(', ');
}
