import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATES, type LifecycleState } from './enums';
import { TRANSITIONS, allowedNext, canTransition, describeIllegalTransition, isTerminal } from './lifecycle';

// Written out by hand from DESIGN §3.1, independently of TRANSITIONS, so a typo in either shows up.
// Columns: CANDIDATE VALIDATED DISPUTED SUPERSEDED QUARANTINED REVOKED
const Y = true;
const N = false;
const EXPECTED: Record<LifecycleState, Record<LifecycleState, boolean>> = {
  //              CAND VAL DISP SUPER QUAR REV
  CANDIDATE: row(N, Y, N, N, Y, Y),
  VALIDATED: row(N, N, Y, Y, Y, Y),
  DISPUTED: row(N, Y, N, Y, Y, Y),
  SUPERSEDED: row(N, N, N, N, N, Y),
  QUARANTINED: row(Y, N, N, N, N, Y),
  REVOKED: row(N, N, N, N, N, N),
};

function row(
  candidate: boolean,
  validated: boolean,
  disputed: boolean,
  superseded: boolean,
  quarantined: boolean,
  revoked: boolean,
): Record<LifecycleState, boolean> {
  return {
    CANDIDATE: candidate,
    VALIDATED: validated,
    DISPUTED: disputed,
    SUPERSEDED: superseded,
    QUARANTINED: quarantined,
    REVOKED: revoked,
  };
}

const pairs = LIFECYCLE_STATES.flatMap((from) =>
  LIFECYCLE_STATES.map((to) => ({ from, to, legal: EXPECTED[from][to] })),
);

describe('lifecycle transitions', () => {
  it('covers all 36 pairs', () => {
    expect(pairs).toHaveLength(36);
  });

  it.each(pairs)('$from → $to legal=$legal', ({ from, to, legal }) => {
    expect(canTransition(from, to)).toBe(legal);
    expect(allowedNext(from).includes(to)).toBe(legal);
  });

  it('has no self-loops and no CONFIRMED-like shortcut back from REVOKED', () => {
    for (const s of LIFECYCLE_STATES) expect(canTransition(s, s)).toBe(false);
    expect(isTerminal('REVOKED')).toBe(true);
    expect(LIFECYCLE_STATES.filter(isTerminal)).toEqual(['REVOKED']);
  });

  it('every state can reach REVOKED (a bad revision can always be killed)', () => {
    for (const s of LIFECYCLE_STATES) {
      if (s !== 'REVOKED') expect(canTransition(s, 'REVOKED')).toBe(true);
    }
  });

  it('leaving quarantine always goes through CANDIDATE, never straight to VALIDATED', () => {
    expect(allowedNext('QUARANTINED')).toEqual(['CANDIDATE', 'REVOKED']);
  });

  it('the table cannot be mutated by callers', () => {
    expect(Object.isFrozen(TRANSITIONS)).toBe(true);
    expect(Object.isFrozen(TRANSITIONS.CANDIDATE)).toBe(true);
    expect(() => (TRANSITIONS.REVOKED as LifecycleState[]).push('CANDIDATE')).toThrow(TypeError);
  });
});

describe('describeIllegalTransition', () => {
  it('names the allowed moves', () => {
    expect(describeIllegalTransition('VALIDATED', 'CANDIDATE')).toBe(
      'illegal transition VALIDATED → CANDIDATE; allowed from VALIDATED: DISPUTED, SUPERSEDED, QUARANTINED, REVOKED',
    );
    expect(describeIllegalTransition('SUPERSEDED', 'VALIDATED')).toBe(
      'illegal transition SUPERSEDED → VALIDATED; allowed from SUPERSEDED: REVOKED',
    );
  });

  it('says REVOKED is terminal', () => {
    expect(describeIllegalTransition('REVOKED', 'VALIDATED')).toBe(
      'illegal transition REVOKED → VALIDATED; REVOKED is terminal',
    );
  });
});
