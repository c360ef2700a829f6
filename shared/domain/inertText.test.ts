import { describe, expect, it } from 'vitest';
import { countHidden, inertSegments, labelHidden } from './inertText';

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

  it('puts no empty text between adjacent markers or before a leading one', () => {
    const segments = inertSegments('\u202E\u200Bab\u2060');
    expect(segments).toEqual([
      { kind: 'hidden', codePoint: 'U+202E' },
      { kind: 'hidden', codePoint: 'U+200B' },
      { kind: 'text', text: 'ab' },
      { kind: 'hidden', codePoint: 'U+2060' },
    ]);
    // Three markers among four segments: the count is of markers, not of segments or text.
    expect(countHidden(segments)).toBe(3);
    expect(countHidden(inertSegments('plain'))).toBe(0);
  });

  it('returns nothing for empty content', () => {
    expect(inertSegments('')).toEqual([]);
  });
});

describe('labelHidden', () => {
  it('writes each hidden character as its bracketed label, as a report prints it', () => {
    expect(labelHidden('invoice_\u202Efdp.exe')).toBe('invoice_[U+202E]fdp.exe');
    expect(labelHidden(`a\u200B\u{E0041}b`)).toBe('a[U+200B][U+E0041]b');
    expect(labelHidden('nothing hidden')).toBe('nothing hidden');
  });
});
