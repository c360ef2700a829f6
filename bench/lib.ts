import { performance } from 'node:perf_hooks';

/** Runs fn `runs` times after `warmup` runs and returns the median in milliseconds. */
export function medianMs(fn: () => unknown, runs = 15, warmup = 3): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** p50 and p95 of `runs` awaited calls after `warmup` unmeasured ones. */
export async function percentilesMsAsync(fn: () => unknown, runs = 15, warmup = 3): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]! };
}

export async function medianMsAsync(fn: () => Promise<unknown>, runs = 15, warmup = 3): Promise<number> {
  return (await percentilesMsAsync(fn, runs, warmup)).p50;
}

export function report(name: string, figures: Record<string, number | string>): void {
  const parts = Object.entries(figures).map(([k, v]) => `${k}=${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(3)) : v}`);
  process.stdout.write(`${name}: ${parts.join('  ')}\n`);
}

// The PRNG lives with the test helpers (the fault suite uses it too); benches take it from here.
export { seededRandom } from '../electron/testing/seededRandom';
