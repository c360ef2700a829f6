import { useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../shared/ipc/channels/search';
import { call } from '../bridge';
import { messageOf } from '../state/actionError';

/**
 * Full-text search of the case (search:query, within the reader's clearance) as the words are
 * typed: asked after a pause, from two characters on; a later answer replaces an earlier one.
 */
export function useCaseSearch(q: string, limit: number, pauseMs: number): { hits: { q: string; items: SearchHit[]; total: number } | null; error: string | null } {
  const [hits, setHits] = useState<{ q: string; items: SearchHit[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  useEffect(() => {
    const words = q.trim();
    const ticket = ++asked.current;
    if (words.length < 2) {
      setHits(null);
      setError(null);
      return;
    }
    const timer = setTimeout(() => {
      call('search:query', { q: words, limit })
        .then((r) => ticket === asked.current && (setHits({ q: words, items: r.hits, total: r.total }), setError(null)))
        .catch((err: unknown) => ticket === asked.current && setError(messageOf(err)));
    }, pauseMs);
    return () => clearTimeout(timer);
  }, [q, limit, pauseMs]);
  return { hits, error };
}
