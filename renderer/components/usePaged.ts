import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../state/actionError';
import { latestRead } from '../state/latestRead';
import { useWorkbench } from '../state/store';

/** One page of a list channel: its rows, the cursor of the next page, and counts on the first page. */
export interface Page<T, C> {
  items: T[];
  nextCursor: string | null;
  counts?: C;
}

export interface Paged<T, C> {
  items: T[];
  counts: C | null;
  hasMore: boolean;
  loading: boolean;
  /** Why the last read failed; the rows already read stay. A failure is never an empty list. */
  error: string | null;
  loadMore: () => void;
  /** Reads the first page again (after a failure, or to start over). */
  reload: () => void;
}

/**
 * A list read a page at a time from a list channel: `read(undefined)` answers the first page (with
 * counts), `read(cursor)` the next. Read again from the first page when `query` (the filters, as
 * a string) changes and after every recorded change (the store's refresh count moves). An answer
 * to an older read (the case or the filters moved meanwhile) is dropped.
 */
export function usePaged<T, C>(query: string, read: (after: string | undefined) => Promise<Page<T, C>>): Paged<T, C> {
  const refreshes = useWorkbench((s) => s.refreshes);
  const [items, setItems] = useState<T[]>([]);
  const [counts, setCounts] = useState<C | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reads] = useState(latestRead);
  // The reader of the current query: the callbacks below read it, so only `query` restarts the list.
  const reader = useRef(read);
  reader.current = read;

  const reload = useCallback(() => {
    const current = reads.begin();
    setLoading(true);
    setError(null);
    reader
      .current(undefined)
      .then((page) => {
        if (!current()) return;
        setItems(page.items);
        setCounts(page.counts ?? null);
        setCursor(page.nextCursor);
      })
      .catch((err: unknown) => {
        if (!current()) return;
        setItems([]);
        setCounts(null);
        setCursor(null);
        setError(messageOf(err));
      })
      .finally(() => {
        if (current()) setLoading(false);
      });
    // `query` names what the reader reads: a new query is a new list.
  }, [query]);

  useEffect(reload, [reload, refreshes]);

  const loadMore = useCallback(() => {
    if (loading || cursor === null) return;
    const current = reads.follow();
    setLoading(true);
    reader
      .current(cursor)
      .then((page) => {
        if (!current()) return;
        setItems((rows) => [...rows, ...page.items]);
        setCursor(page.nextCursor);
      })
      .catch((err: unknown) => {
        if (current()) setError(messageOf(err));
      })
      .finally(() => {
        if (current()) setLoading(false);
      });
  }, [cursor, loading]);

  return { items, counts, hasMore: cursor !== null, loading, error, loadMore, reload };
}
