import { describe, expect, it } from 'vitest';
import { formatTime, parseRefs, shortHash } from './format';

describe('format', () => {
  it('shortens a fingerprint with an ellipsis and leaves a short value alone', () => {
    expect(shortHash('0123456789abcdef')).toBe('0123456789ab…');
    expect(shortHash('0123456789abcdef', 8)).toBe('01234567…');
    expect(shortHash('abc')).toBe('abc');
  });

  it('shows times in UTC to the second', () => {
    expect(formatTime('2026-11-20T03:24:07.412+02:00')).toBe('2026-11-20 01:24:07Z');
    expect(formatTime(null)).toBe('—');
    expect(formatTime('not a time')).toBe('not a time');
  });

  it('reads computation refs separated by commas or lines, dropping blanks', () => {
    expect(parseRefs(' q-17, nb:exfil.ipynb\nscript:bytes.py ,, \n')).toEqual(['q-17', 'nb:exfil.ipynb', 'script:bytes.py']);
    expect(parseRefs('   ')).toEqual([]);
  });
});
