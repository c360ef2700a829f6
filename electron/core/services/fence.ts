import { FENCING_STATES, type FencingState, type LifecycleState } from '../../../shared/domain/enums';
import type { ServiceContext } from '../context';
import { writeFence, type WrittenFence } from '../store/fenceRows';

/**
 * The synchronous half of revocation (DESIGN §3.5, seed 001). transitionEvidence calls this inside
 * the transition's own transaction for every move that takes a revision out of normal flows
 * (revoke, supersede, quarantine, dispute): one fence row, one outbox job and one progress row,
 * three writes whatever the number of dependents; the worker pages through them after the commit.
 *
 * Returns what it wrote, for the transition's own receipt (the transition, its fence and its job
 * are one receipted fact), or null when the move does not fence.
 */
export function fenceTransition(
  ctx: ServiceContext,
  change: { revisionId: string; from: LifecycleState; to: LifecycleState; reason: string; supportingRef: string | null },
): WrittenFence | null {
  if (!isFencing(change.to)) return null;
  return writeFence(ctx, {
    revisionId: change.revisionId,
    cause: change.to,
    fromState: change.from,
    rootFenceId: null,
    parentFenceId: null,
    reason: change.reason,
    supportingRef: change.supportingRef,
  });
}

const isFencing = (state: LifecycleState): state is FencingState => (FENCING_STATES as readonly LifecycleState[]).includes(state);
