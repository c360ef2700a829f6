/**
 * Evidence content is data, never markup or instructions (DESIGN §3.1). It reaches the DOM only as
 * React text nodes, and a case report only escaped; this module additionally makes characters that change how text *looks* without
 * being visible (bidi overrides, zero-width characters, Unicode tags, C0/C1 controls) show up as
 * labelled markers, so an analyst sees what a "Trojan Source"-style payload actually contains.
 */

export type InertSegment = { kind: 'text'; text: string } | { kind: 'hidden'; codePoint: string };

// Tab, line feed and carriage return are ordinary layout in logs; everything else listed is not.
const HIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu;

export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

export function inertSegments(content: string): InertSegment[] {
  const segments: InertSegment[] = [];
  let last = 0;
  for (const m of content.matchAll(HIDDEN)) {
    if (m.index > last) segments.push({ kind: 'text', text: content.slice(last, m.index) });
    segments.push({ kind: 'hidden', codePoint: codePointLabel(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < content.length) segments.push({ kind: 'text', text: content.slice(last) });
  return segments;
}

export function countHidden(segments: readonly InertSegment[]): number {
  return segments.filter((s) => s.kind === 'hidden').length;
}

/** The text with every hidden character written as its label, `[U+202E]`: how a report prints it. */
export function labelHidden(content: string): string {
  return inertSegments(content)
    .map((s) => (s.kind === 'text' ? s.text : `[${s.codePoint}]`))
    .join('');
}
