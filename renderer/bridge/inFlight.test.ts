import { describe, expect, it } from 'vitest';
import { limitInFlight } from './inFlight';

describe('limitInFlight', () => {
  it('never runs more than the limit at once, serves waiters in order, and frees a slot on failure too', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const limited = limitInFlight(6, async (i: number) => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 1 + (i % 3)));
      running--;
      if (i % 7 === 0) throw new Error(`call ${i} refused`);
      return i * 2;
    });
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => limited(i)));
    expect(most).toBe(6);
    expect(started).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(9);
    expect(results[5]).toEqual({ status: 'fulfilled', value: 10 });
    // Everything drained: a new call starts at once.
    let ran = false;
    await limited(1).then(() => (ran = true));
    expect(ran).toBe(true);
  });
});
