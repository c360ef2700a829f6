import type { RemediationView } from '../../../shared/ipc/channels/remediation';

type Affected = RemediationView['affected'][number];

/**
 * The successor picker's starting point: for each affected binding, the newest usable revision of
 * its lineage, or nothing. The reviewer still confirms; the service re-verifies the exact set.
 */
export function defaultSuccessors(affected: readonly Affected[]): Record<number, string> {
  const picks: Record<number, string> = {};
  for (const a of affected) {
    const usable = a.successors.filter((s) => s.usable);
    const newest = usable[usable.length - 1];
    if (newest) picks[a.bindingId] = newest.revisionId;
  }
  return picks;
}

/** What retainCurrentRevision is sent: the picked successors, in binding order, without blanks. */
export function pickedSuccessors(affected: readonly Affected[], picks: Record<number, string>): string[] {
  return affected.map((a) => picks[a.bindingId] ?? '').filter((id) => id !== '');
}

/** REQUIRED bindings still without a pick: the service refuses those, the form says so first. */
export function uncoveredRequired(affected: readonly Affected[], picks: Record<number, string>): string[] {
  return affected.filter((a) => a.role === 'REQUIRED' && !picks[a.bindingId]).map((a) => a.revisionId);
}
