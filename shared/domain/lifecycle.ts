import type { LifecycleState } from './enums';

/**
 * Legal lifecycle transitions of one evidence revision (DESIGN §3.1).
 *
 * The service layer refuses anything not listed here. QUARANTINED → CANDIDATE is the only way back
 * out of quarantine and deliberately lands on CANDIDATE, so a released revision must pass the full
 * validation checklist again instead of silently regaining VALIDATED.
 */
export const TRANSITIONS: Readonly<Record<LifecycleState, readonly LifecycleState[]>> = Object.freeze({
  CANDIDATE: Object.freeze(['VALIDATED', 'QUARANTINED', 'REVOKED'] as const),
  VALIDATED: Object.freeze(['DISPUTED', 'SUPERSEDED', 'QUARANTINED', 'REVOKED'] as const),
  DISPUTED: Object.freeze(['VALIDATED', 'SUPERSEDED', 'REVOKED', 'QUARANTINED'] as const),
  QUARANTINED: Object.freeze(['CANDIDATE', 'REVOKED'] as const),
  SUPERSEDED: Object.freeze(['REVOKED'] as const),
  REVOKED: Object.freeze([] as const),
});

export function allowedNext(from: LifecycleState): readonly LifecycleState[] {
  return TRANSITIONS[from];
}

export function canTransition(from: LifecycleState, to: LifecycleState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isTerminal(state: LifecycleState): boolean {
  return TRANSITIONS[state].length === 0;
}

/** Message for the service layer's error; it names the allowed moves so the analyst knows what to do instead. */
export function describeIllegalTransition(from: LifecycleState, to: LifecycleState): string {
  const head = `illegal transition ${from} → ${to}`;
  if (isTerminal(from)) return `${head}; ${from} is terminal`;
  return `${head}; allowed from ${from}: ${allowedNext(from).join(', ')}`;
}
