import { describe, expect, it } from 'vitest';
import { countHidden, inertSegments } from './inertText';

describe('inertSegments', () => {
  it('keeps ordinary text, markup and whitespace as one literal segment', () => {
    const content = '<script>alert(1)</script>\n\tline two  <b>x</b>\r\n';
    expect(inertSegments(content)).toEqual([{ kind: 'text', text: content }]);
  });

  it('turns bidi overrides, zero-width and tag characters into labelled markers', () => {
    const segments = inertSegments('ab\u202Ecd\u200Bef\u{E0041}');
    expect(segments).toEqual([
      { kind: 'text', text: 'ab' },
      { kind: 'hidden', codePoint: 'U+202E' },
      { kind: 'text', text: 'cd' },
      { kind: 'hidden', codePoint: 'U+200B' },
      { kind: 'text', text: 'ef' },
      { kind: 'hidden', codePoint: 'U+E0041' },
    ]);
    expect(countHidden(segments)).toBe(3);
  });

  it('marks control characters other than tab and newlines', () => {
    expect(inertSegments('a\u0007b\u001Bc')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'hidden', codePoint: 'U+0007' },
      { kind: 'text', text: 'b' },
      { kind: 'hidden', codePoint: 'U+001B' },
      { kind: 'text', text: 'c' },
    ]);
  });

  it('loses no character: the text segments plus markers rebuild the content', () => {
    const content = 'x\u2066y\u2069z\u00ADw';
    const rebuilt = inertSegments(content)
      .map((s) => (s.kind === 'text' ? s.text : String.fromCodePoint(parseInt(s.codePoint.slice(2), 16))))
      .join('');
    expect(rebuilt).toBe(content);
  });

  it('returns nothing for empty content', () => {
    expect(inertSegments('')).toEqual([]);
  });
});
