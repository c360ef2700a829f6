import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quorumMajority, quorumOutcome, unresolvedRefusal, type QuorumVote } from './quorum';

type Ballot = 'refute' | 'uphold' | 'abstain' | 'invalid';
const BALLOTS: readonly Ballot[] = ['refute', 'uphold', 'abstain', 'invalid'];

function vote(reviewer: string, ballot: Ballot): QuorumVote {
  switch (ballot) {
    case 'refute':
      return { reviewer, refuted: true, valid: true };
    case 'uphold':
      return { reviewer, refuted: false, valid: true };
    case 'abstain':
      return { reviewer, refuted: null, valid: true };
    case 'invalid':
      // An incomplete checklist invalidates even a concrete vote.
      return { reviewer, refuted: false, valid: false };
  }
}

const combos = BALLOTS.flatMap((a) => BALLOTS.flatMap((b) => BALLOTS.map((c) => [a, b, c] as const)));

describe('quorumOutcome with N = 3: all 64 ballots', () => {
  it('enumerates 4^3 combinations', () => {
    expect(combos).toHaveLength(64);
  });

  // DESIGN §3.4 stated directly: survives iff at least 2 valid votes and fewer than 2 refute.
  it.each(combos)('%s, %s, %s', (a, b, c) => {
    const ballots = [a, b, c];
    const valid = ballots.filter((x) => x === 'refute' || x === 'uphold').length;
    const refute = ballots.filter((x) => x === 'refute').length;
    const survives = valid >= 2 && refute < 2;
    const tier = refute >= 2 ? 'REFUTED' : survives ? 'VERIFIED' : 'UNVERIFIED';

    const r = quorumOutcome([vote('r1', a), vote('r2', b), vote('r3', c)], 3);
    expect(r).toMatchObject({ tier, survives, validVotes: valid, refuteVotes: refute });
  });

  it('explains an unverified outcome', () => {
    expect(quorumOutcome([vote('r1', 'uphold'), vote('r2', 'abstain'), vote('r3', 'abstain')], 3).reason).toBe(
      'only 1 valid vote of 3 (needs 2); abstentions and invalid votes never approve',
    );
  });

  it('explains refuted and verified outcomes', () => {
    expect(quorumOutcome([vote('a', 'refute'), vote('b', 'refute'), vote('c', 'uphold')], 3).reason).toBe(
      '2 of 3 valid votes refute; majority of a quorum of 3 is 2',
    );
    expect(quorumOutcome([vote('a', 'uphold'), vote('b', 'refute'), vote('c', 'uphold')], 3).reason).toBe(
      '3 valid votes of 3, 1 refute (majority 2 not reached)',
    );
  });
});

describe('quorumOutcome: one vote per reviewer', () => {
  it('the same reviewer voting twice counts once', () => {
    const r = quorumOutcome([vote('r1', 'uphold'), vote('r1', 'uphold')], 3);
    expect(r).toMatchObject({ tier: 'UNVERIFIED', validVotes: 1 });
  });

  it('the last vote by a reviewer replaces the earlier one', () => {
    const changedMind = [vote('r1', 'refute'), vote('r2', 'refute'), vote('r2', 'uphold')];
    expect(quorumOutcome(changedMind, 3)).toMatchObject({ tier: 'VERIFIED', refuteVotes: 1, validVotes: 2 });
    const withdrew = [vote('r1', 'uphold'), vote('r2', 'uphold'), vote('r2', 'abstain')];
    expect(quorumOutcome(withdrew, 3)).toMatchObject({ tier: 'UNVERIFIED', validVotes: 1 });
  });
});

describe('quorumOutcome: other sizes', () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 3],
    [5, 3],
  ])('majority of %i is %i', (size, m) => {
    expect(quorumMajority(size)).toBe(m);
  });

  it('N = 5 needs three valid votes', () => {
    const two = [vote('a', 'uphold'), vote('b', 'uphold'), vote('c', 'abstain'), vote('d', 'invalid')];
    expect(quorumOutcome(two, 5).tier).toBe('UNVERIFIED');
    expect(quorumOutcome([...two, vote('e', 'refute')], 5).tier).toBe('VERIFIED');
  });

  it('no votes is UNVERIFIED', () => {
    expect(quorumOutcome([], 3)).toMatchObject({ tier: 'UNVERIFIED', survives: false, validVotes: 0, refuteVotes: 0 });
  });

  it.each([0, -1, 2.5, Number.NaN])('rejects quorum size %s', (size) => {
    expect(() => quorumOutcome([], size)).toThrow(RangeError);
    expect(() => quorumOutcome([], size)).toThrow(`quorumOutcome: quorum size must be a positive integer, got ${size}`);
  });
});

describe('quorumOutcome: properties', () => {
  const reviewer = fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6');
  const aVote = fc.tuple(reviewer, fc.constantFrom(...BALLOTS)).map(([r, b]) => vote(r, b));
  const votes = fc.array(aVote, { maxLength: 12 });
  const size = fc.integer({ min: 1, max: 7 });

  it('survives iff VERIFIED, and tiers follow the majority rule', () => {
    fc.assert(
      fc.property(votes, size, (vs, n) => {
        const r = quorumOutcome(vs, n);
        const m = Math.floor(n / 2) + 1;
        expect(r.survives).toBe(r.tier === 'VERIFIED');
        expect(r.refuteVotes).toBeLessThanOrEqual(r.validVotes);
        expect(r.tier).toBe(r.refuteVotes >= m ? 'REFUTED' : r.validVotes >= m ? 'VERIFIED' : 'UNVERIFIED');
      }),
    );
  });

  it('an abstention or invalid vote from a new reviewer never changes the outcome', () => {
    fc.assert(
      fc.property(votes, size, fc.constantFrom<Ballot>('abstain', 'invalid'), (vs, n, b) => {
        expect(quorumOutcome([...vs, vote('newcomer', b)], n)).toEqual(quorumOutcome(vs, n));
      }),
    );
  });

  it('counts at most one vote per distinct reviewer', () => {
    fc.assert(
      fc.property(votes, size, (vs, n) => {
        expect(quorumOutcome(vs, n).validVotes).toBeLessThanOrEqual(new Set(vs.map((v) => v.reviewer)).size);
      }),
    );
  });

  it('repeating the whole ballot does not change the outcome', () => {
    fc.assert(
      fc.property(votes, size, (vs, n) => {
        expect(quorumOutcome([...vs, ...vs], n)).toEqual(quorumOutcome(vs, n));
      }),
    );
  });
});

describe('UNRESOLVED on a quorum claim', () => {
  const v = (reviewer: string, refuted: boolean | null, valid = true) => ({ reviewer, refuted, valid });
  it.each([
    ['nobody voted', [], 'only 0 reviewers'],
    ['one reviewer voted', [v('a', null)], 'only 1 reviewer has'],
    ['three voted, one invalid', [v('a', null), v('b', false), v('c', true, false)], 'only 2 reviewers'],
    ['the quorum verified it', [v('a', false), v('b', false), v('c', null)], 'reached a verdict (VERIFIED'],
    ['the quorum refuted it', [v('a', true), v('b', true), v('c', null)], 'reached a verdict (REFUTED'],
  ])('is refused when %s', (_what, votes, message) => {
    expect(unresolvedRefusal(quorumOutcome(votes, 3), votes, 3)).toContain(message);
  });

  it('is allowed when the whole quorum looked and could not decide', () => {
    const votes = [v('a', null), v('b', null), v('c', false)];
    expect(quorumOutcome(votes, 3).tier).toBe('UNVERIFIED');
    expect(unresolvedRefusal(quorumOutcome(votes, 3), votes, 3)).toBeNull();
    // A reviewer who changed their vote counts once.
    const again = [v('a', null), v('a', null), v('b', null)];
    expect(unresolvedRefusal(quorumOutcome(again, 3), again, 3)).toContain('only 2 reviewers');
  });
});
