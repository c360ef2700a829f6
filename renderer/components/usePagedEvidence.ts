import { useCallback, useEffect, useRef, useState } from 'react';
import type { LifecycleState } from '../../shared/domain/enums';
import type { EvidenceCounts, QueueRevision } from '../../shared/ipc/channels/evidence';
import { call } from '../bridge';
import { messageOf } from '../state/actionError';
import { useWorkbench } from '../state/store';

const PAGE = 100;

export interface PagedEvidence {
  items: QueueRevision[];
  counts: EvidenceCounts | null;
  hasMore: boolean;
  loading: boolean;
  /** Why the last read failed; the rows already read stay. */
  error: string | null;
  loadMore: () => void;
  /** Reads the first page again (after a failure, or to start over). */
  reload: () => void;
}

/**
 * The revisions in one lifecycle state, a page at a time from evidence:list, each with the move
 * that put it there: a queue never holds the whole case nor asks for one detail per row. Read
 * afresh after every recorded change (the store's refresh count moves).
 */
export function usePagedEvidence(state: LifecycleState): PagedEvidence {
  const refreshes = useWorkbench((s) => s.refreshes);
  const [items, setItems] = useState<QueueRevision[]>([]);
  const [counts, setCounts] = useState<EvidenceCounts | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // An answer to an older read (the case moved meanwhile) is dropped.
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setLoading(true);
    setError(null);
    call('evidence:list', { state, sort: 'revision', limit: PAGE, counts: true })
      .then((page) => {
        if (mine !== generation.current) return;
        setItems(page.items);
        setCounts(page.counts ?? null);
        setCursor(page.nextCursor);
      })
      .catch((err: unknown) => {
        if (mine !== generation.current) return;
        setItems([]);
        setCounts(null);
        setCursor(null);
        setError(messageOf(err));
      })
      .finally(() => {
        if (mine === generation.current) setLoading(false);
      });
  }, [state]);

  useEffect(reload, [reload, refreshes]);

  const loadMore = useCallback(() => {
    if (loading || cursor === null) return;
    const mine = generation.current;
    setLoading(true);
    call('evidence:list', { state, sort: 'revision', limit: PAGE, after: cursor })
      .then((page) => {
        if (mine !== generation.current) return;
        setItems((rows) => [...rows, ...page.items]);
        setCursor(page.nextCursor);
      })
      .catch((err: unknown) => {
        if (mine === generation.current) setError(messageOf(err));
      })
      .finally(() => {
        if (mine === generation.current) setLoading(false);
      });
  }, [state, cursor, loading]);

  return { items, counts, hasMore: cursor !== null, loading, error, loadMore, reload };
}
