import { LIFECYCLE_STATES, type LifecycleState } from '../../../shared/domain/enums';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import type { EvidenceFilter } from '../../state/types';

export function filterEvidence(items: readonly RevisionSummary[], filter: EvidenceFilter): RevisionSummary[] {
  const needle = filter.text.trim().toLowerCase();
  return items.filter(
    (r) =>
      (filter.state === 'ALL' || r.state === filter.state) &&
      (filter.kind === 'ALL' || r.kind === filter.kind) &&
      (needle === '' || [r.revisionId, r.title, r.sourceType, r.producer].some((f) => f.toLowerCase().includes(needle))),
  );
}

/** How many revisions are in each lifecycle state, in lifecycle order (zeros kept for a stable bar). */
export function countByState(items: readonly RevisionSummary[]): { state: LifecycleState; count: number }[] {
  return LIFECYCLE_STATES.map((state) => ({ state, count: items.filter((r) => r.state === state).length }));
}
