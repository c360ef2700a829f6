import { describe, expect, it } from 'vitest';
import { latestRead } from './latestRead';

describe('latestRead', () => {
  it('only the last read begun is current; a follow-up is current until another read begins', () => {
    const reads = latestRead();
    const first = reads.begin();
    expect(first()).toBe(true);
    const second = reads.begin();
    expect([first(), second()]).toEqual([false, true]);
    const next = reads.follow();
    expect(next()).toBe(true);
    reads.begin();
    expect([second(), next()]).toEqual([false, false]);
  });

  it('reads of different things do not overtake each other', () => {
    const a = latestRead();
    const b = latestRead();
    const fromA = a.begin();
    b.begin();
    expect(fromA()).toBe(true);
  });
});
