/**
 * Reads of one thing that may overlap (a refresh, a reviewer switched, a filter changed): each read
 * begun takes a ticket, and only the last one begun may write its answer. Without it an older answer
 * that arrives late (the previous reviewer's queue) overwrites the newer one.
 */
export interface LatestRead {
  /** Begins a read; the check says whether it is still the last one begun. */
  begin(): () => boolean;
  /** A follow-up of the last read begun (its next page): current while no other read begins. */
  follow(): () => boolean;
}

export function latestRead(): LatestRead {
  let asked = 0;
  const ticket = (mine: number) => () => mine === asked;
  return { begin: () => ticket(++asked), follow: () => ticket(asked) };
}
