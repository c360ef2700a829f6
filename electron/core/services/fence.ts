import type { LifecycleState } from '../../../shared/domain/enums';
import type { ServiceContext } from '../context';
import { onTransition } from './evidence';
import { writeFence, type FenceCause } from './fenceRows';

/**
 * The synchronous half of revocation (DESIGN §3.5, seed 001): a revoke or supersede writes, inside
 * the transition's own transaction, one fence row, one outbox job and one progress row. Three
 * writes whatever the number of dependents; the worker pages through them after the commit.
 *
 * The hook is registered when this module loads. handlers.ts imports it through the revocation
 * handlers, so every transport that can transition evidence has it installed.
 */
const FENCING: ReadonlySet<LifecycleState> = new Set(['REVOKED', 'SUPERSEDED']);

/**
 * The transition hook. What it wrote goes into the transition's own receipt body (`effects`), so
 * the revoke, its fence and its job are one receipted fact, not three.
 */
export function fenceOnTransition(
  ctx: ServiceContext,
  change: { row: { revision_id: string }; from: LifecycleState; to: LifecycleState; reason: string; supportingRef: string | null },
): Record<string, unknown> | undefined {
  if (!FENCING.has(change.to)) return undefined;
  const { fenceId, jobId } = writeFence(ctx, {
    revisionId: change.row.revision_id,
    cause: change.to as FenceCause,
    fromState: change.from,
    rootFenceId: null,
    parentFenceId: null,
    reason: change.reason,
    supportingRef: change.supportingRef,
  });
  return { fence: { fenceId, jobId } };
}

onTransition(fenceOnTransition);
