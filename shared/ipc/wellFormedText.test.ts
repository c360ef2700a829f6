import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { illFormedText } from './wellFormedText';

describe('illFormedText', () => {
  it('names every string with a lone surrogate, high or low, by its path', () => {
    expect(illFormedText({ statement: 'ok \uD800 then', scope: ['fine', 'x\uDC00'], policy: { note: 'a\uD83D' } })).toEqual([
      { path: ['statement'], message: expect.stringContaining('index 3') },
      { path: ['scope', 1], message: expect.stringContaining('lone UTF-16 surrogate') },
      { path: ['policy', 'note'], message: expect.stringContaining('index 1') },
    ]);
  });

  it('accepts well-formed text, emoji (surrogate pairs) included', () => {
    expect(illFormedText({ a: 'plain', b: 'emoji 🙂 and 𝄞', c: ['', 'zero\u200Bwidth'], d: 3, e: null })).toEqual([]);
  });

  it('agrees with String.prototype.isWellFormed for any string', () => {
    const isWellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(illFormedText(s).length === 0).toBe(isWellFormed(s));
      }),
      { numRuns: 2000 },
    );
  });
});
