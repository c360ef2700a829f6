import type { LifecycleState } from '../../shared/domain/enums';
import type { EvidenceCounts, QueueRevision } from '../../shared/ipc/channels/evidence';
import { call } from '../bridge';
import { usePaged, type Paged } from './usePaged';

const PAGE = 100;

export type PagedEvidence = Paged<QueueRevision, EvidenceCounts>;

/**
 * The revisions in one lifecycle state, a page at a time from evidence:list, each with the move
 * that put it there: a queue never holds the whole case nor asks for one detail per row.
 */
export function usePagedEvidence(state: LifecycleState): PagedEvidence {
  return usePaged(state, (after) =>
    call('evidence:list', { state, sort: 'revision', limit: PAGE, ...(after === undefined ? { counts: true } : { after }) }),
  );
}
