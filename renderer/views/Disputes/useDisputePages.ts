import type { ClaimSummary } from '../../../shared/domain/schemas';
import type { ClaimCounts } from '../../../shared/ipc/channels/claims';
import type { EvidenceCounts, QueueRevision } from '../../../shared/ipc/channels/evidence';
import { call } from '../../bridge';
import { usePaged, type Paged } from '../../components/usePaged';

const PAGE = 100;

export interface DisputePages {
  claims: Paged<ClaimSummary, ClaimCounts>;
  revisions: Paged<QueueRevision, EvidenceCounts>;
  /** How many of each are in dispute (with the filter), from the store's counts; null until both are read. */
  counts: { claims: number; revisions: number } | null;
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  /** The next page: of MIXED claims until they are all read, then of DISPUTED revisions. */
  loadMore: () => void;
  retry: () => void;
}

/**
 * The two halves of the dispute queue, each read a page at a time from its list channel with
 * the same words filter: MIXED claims (claim:page) and DISPUTED revisions (evidence:list).
 */
export function useDisputePages(text: string): DisputePages {
  const words = text ? { text } : {};
  const claims = usePaged(`claims\u0000${text}`, (after) =>
    call('claim:page', { status: 'MIXED', limit: PAGE, ...words, ...(after === undefined ? { counts: true } : { after }) }),
  );
  const revisions = usePaged(`revisions\u0000${text}`, (after) =>
    call('evidence:list', { state: 'DISPUTED', limit: PAGE, ...words, ...(after === undefined ? { counts: true } : { after }) }),
  );
  const error = claims.error ?? revisions.error;
  return {
    claims,
    revisions,
    counts: claims.counts && revisions.counts ? { claims: claims.counts.byStatus.MIXED ?? 0, revisions: revisions.counts.byState.DISPUTED ?? 0 } : null,
    hasMore: claims.hasMore || revisions.hasMore,
    loading: claims.loading || revisions.loading,
    error,
    loadMore: () => (claims.hasMore ? claims.loadMore() : revisions.loadMore()),
    retry: () => {
      for (const list of [claims, revisions]) if (list.error !== null) (list.items.length === 0 ? list.reload : list.loadMore)();
    },
  };
}
