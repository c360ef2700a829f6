/**
 * At most `max` calls of `run` in flight; the rest wait their turn, first come first served. A
 * view that asks for many rows at once would otherwise open hundreds of requests, and Chromium
 * refuses part of such a burst (net::ERR_INSUFFICIENT_RESOURCES, issue 11).
 */
export function limitInFlight<A extends unknown[], R>(max: number, run: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (...args) => {
    // A finishing call hands its slot straight to the next waiter, so no newcomer can slip in between.
    if (active >= max) await new Promise<void>((take) => waiting.push(take));
    else active++;
    try {
      return await run(...args);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
