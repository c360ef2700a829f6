import type { LifecycleState } from '../../shared/domain/enums';
import { RevisionId } from '../../shared/domain/schemas';
import type { Transition } from '../../shared/domain/schemas';

/** The most recent move into `state`: why the revision is where it is (quarantine, dispute). */
export function latestEntryInto(transitions: readonly Transition[], state: LifecycleState): Transition | null {
  for (let i = transitions.length - 1; i >= 0; i--) {
    if (transitions[i]!.to === state) return transitions[i]!;
  }
  return null;
}

/** A supporting ref that names an exact revision (e.g. "ev-fw-001@1"), or null for tickets and notes. */
export function referencedRevision(ref: string | null): string | null {
  if (ref === null) return null;
  return RevisionId.safeParse(ref.trim()).success ? ref.trim() : null;
}
