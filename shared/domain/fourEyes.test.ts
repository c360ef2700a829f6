import { describe, expect, it } from 'vitest';
import { FOUR_EYES, fourEyesRefusal, type FourEyesAct, type FourEyesParty } from './fourEyes';

const parties: FourEyesParty[] = [
  { role: 'claim-author', actorId: 'ana', ref: 'cl-1' },
  { role: 'proposer', actorId: 'bob', ref: 'dec-1' },
  { role: 'revoker', actorId: 'rev', ref: '7' },
];

// Who may do each act, given ana wrote the claim, bob proposed the decision and rev revoked.
const table: [FourEyesAct, string, boolean][] = [
  ['approve a decision on it', 'ana', false],
  ['approve a decision on it', 'bob', false],
  ['approve a decision on it', 'rev', true],
  ['approve a decision on it', 'carol', true],
  ['vote in its quorum review', 'ana', false],
  ['vote in its quorum review', 'bob', true],
  ['vote in its quorum review', 'rev', true],
  ['retain the decision on a successor', 'ana', false],
  ['retain the decision on a successor', 'bob', false],
  ['retain the decision on a successor', 'rev', false],
  ['retain the decision on a successor', 'carol', true],
  ['resolve the remediation', 'rev', false],
  ['resolve the remediation', 'ana', true],
  ['resolve the remediation', 'bob', true],
];

describe('four eyes', () => {
  it.each(table)('%s by %s: allowed=%s', (act, actor, allowed) => {
    const refusal = fourEyesRefusal(actor, act, parties);
    expect(refusal === null).toBe(allowed);
    if (refusal) expect(refusal).toMatch(new RegExp(`^${actor} .* and cannot ${act} \\(four eyes\\)`));
  });

  it('covers every act in the table and names what the actor authored', () => {
    expect(new Set(table.map(([act]) => act))).toEqual(new Set(Object.keys(FOUR_EYES)));
    expect(fourEyesRefusal('ana', 'approve a decision on it', parties)).toBe('ana wrote claim cl-1 and cannot approve a decision on it (four eyes); another reviewer must');
    expect(fourEyesRefusal('bob', 'approve a decision on it', parties)).toBe('bob proposed dec-1 and cannot approve a decision on it (four eyes); another reviewer must');
  });

  it('ignores parties the act does not exclude and allows anyone when nobody conflicts', () => {
    expect(fourEyesRefusal('ana', 'approve a decision on it', [])).toBeNull();
    expect(fourEyesRefusal('rev', 'vote in its quorum review', parties)).toBeNull();
  });
});
