import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKLIST_ITEMS } from '../../../shared/domain/review';
import type { RequestOf } from '../../../shared/ipc/contract';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';

let rc: ReviewCase;
beforeAll(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.evidence('ev-2');
});
afterAll(() => rc.cleanup());

const complete = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };

/** How a voter votes in the combination table. */
type Ballot = 'support' | 'refute' | 'abstain' | 'invalid';
const BALLOTS: Ballot[] = ['support', 'refute', 'abstain', 'invalid'];

function voteRequest(claimId: string, basis: string, ballot: Ballot): RequestOf<'review:vote'> {
  switch (ballot) {
    case 'support':
      return { claimId, basis, refuted: false, checklist: complete, reason: 'quote matches the sign-in log' };
    case 'refute':
      return { claimId, basis, refuted: true, checklist: { ...complete, contradictingEvidence: true }, reason: 'proxy log contradicts it', killReasons: ['CONTRADICTING_EVIDENCE'] };
    case 'abstain':
      return { claimId, basis, refuted: null, checklist: complete, reason: 'outside my expertise', killReasons: ['FIGURE_NOT_REPRODUCIBLE'] };
    case 'invalid':
      // A refutation with an unanswered checklist item: recorded, never counted.
      return { claimId, basis, refuted: true, checklist: { ...complete, outdated: null }, reason: 'looks wrong', killReasons: ['SINGLE_SOURCE'] };
  }
}

/**
 * The rule as DESIGN §3.4 states it for N=3, written independently of quorum.ts: the claim survives
 * iff at least 2 valid votes exist and fewer than 2 refute; abstentions and invalid votes never
 * count. Two valid refutations make it REFUTED.
 */
function expectedTier(ballots: Ballot[]): 'VERIFIED' | 'UNVERIFIED' | 'REFUTED' {
  const counted = ballots.filter((b) => b === 'support' || b === 'refute');
  const refutes = counted.filter((b) => b === 'refute').length;
  if (refutes >= 2) return 'REFUTED';
  return counted.length >= 2 ? 'VERIFIED' : 'UNVERIFIED';
}

const combinations: Ballot[][] = BALLOTS.flatMap((a) => BALLOTS.flatMap((b) => BALLOTS.map((c) => [a, b, c])));

describe('quorum review through review:vote (N=3)', () => {
  it.each(combinations.map((c, i) => [i, c.join(' / '), c] as const))('combination %i: %s', async (i, _label, ballots) => {
    const claimId = await rc.claim(`cl-q${i}`, { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    const voters = ['bob', 'carol', 'dave'];
    let last;
    for (const [k, ballot] of ballots.entries()) {
      rc.as(voters[k]!);
      last = await rc.call('review:vote', voteRequest(claimId, basis, ballot));
      expect(last.vote.valid).toBe(ballot !== 'invalid');
    }
    const tier = expectedTier(ballots);
    expect(last!.quorum.tier).toBe(tier);
    expect(last!.quorum.survives).toBe(tier === 'VERIFIED');
    expect(last!.quorum.validVotes).toBe(ballots.filter((b) => b === 'support' || b === 'refute').length);
    // Kill reasons are recorded for UNVERIFIED only, and only from valid votes.
    const q = (await rc.call('review:get', { claimId })).quorum!;
    expect(q.tier).toBe(tier);
    if (tier === 'UNVERIFIED') {
      expect(q.killReasons).toContain('TOO_FEW_VALID_VOTES');
      expect(q.killReasons.includes('SINGLE_SOURCE')).toBe(false);
      expect(q.killReasons.includes('FIGURE_NOT_REPRODUCIBLE')).toBe(ballots.includes('abstain'));
    } else {
      expect(q.killReasons).toEqual([]);
    }
    rc.as('admin');
  });

  it('never lets abstentions approve: three abstentions leave the claim UNVERIFIED', async () => {
    const claimId = await rc.claim('cl-abstain', { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    for (const v of ['bob', 'carol', 'dave']) {
      rc.as(v);
      await rc.call('review:vote', voteRequest(claimId, basis, 'abstain'));
    }
    rc.as('erin');
    const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'r' });
    rc.as('bob');
    const env = await rc.raw('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    expect(env.ok).toBe(false);
    if (!env.ok) {
      expect(env.error.code).toBe('CONFLICT');
      expect(env.error.message).toContain('needs a quorum review of 3 and it is UNVERIFIED');
    }
    rc.as('admin');
  });
});

describe('votes', () => {
  it('replaces a reviewer\'s earlier vote and keeps it as history', async () => {
    const claimId = await rc.claim('cl-revote', { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    rc.as('bob');
    await rc.call('review:vote', voteRequest(claimId, basis, 'refute'));
    rc.as('carol');
    await rc.call('review:vote', voteRequest(claimId, basis, 'refute'));
    expect((await rc.call('review:get', { claimId })).quorum!.tier).toBe('REFUTED');
    const again = await rc.call('review:vote', voteRequest(claimId, basis, 'support'));
    expect(again.quorum).toMatchObject({ tier: 'VERIFIED', validVotes: 2, refuteVotes: 1 });
    expect(again.quorum.votes.map((v) => [v.reviewer, v.refuted])).toEqual([
      ['bob', true],
      ['carol', false],
    ]);
    const rows = rc.session.db().prepare('SELECT reviewer, refuted FROM review_vote WHERE claim_id = ? ORDER BY vote_id').all(claimId);
    expect(rows).toEqual([
      { reviewer: 'bob', refuted: 1 },
      { reviewer: 'carol', refuted: 1 },
      { reviewer: 'carol', refuted: 0 },
    ]);
    rc.as('admin');
  });

  it('records an invalid vote with the reasons it does not count', async () => {
    const claimId = await rc.claim('cl-invalid', { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    rc.as('bob');
    const { vote } = await rc.call('review:vote', { claimId, basis, refuted: false, checklist: { supportedByQuote: true }, reason: '' });
    const missing = CHECKLIST_ITEMS.filter((i) => i !== 'supportedByQuote');
    expect(vote.valid).toBe(false);
    expect(vote.problems).toEqual([`checklist incomplete: ${missing.join(', ')} not answered`, 'no reason given']);
    rc.as('admin');
  });

  it('refuses the claim\'s author, analysts, claims without quorum and a stale basis', async () => {
    const claimId = await rc.claim('cl-rules', { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    const before = rc.receiptCount();
    const refused = async (actor: string, request: RequestOf<'review:vote'>) => {
      rc.as(actor);
      const env = await rc.raw('review:vote', request);
      rc.as('admin');
      if (env.ok) throw new Error('vote unexpectedly accepted');
      return env.error;
    };
    expect(await refused('alice', voteRequest(claimId, basis, 'support'))).toMatchObject({ code: 'FORBIDDEN' });
    const plain = await rc.claim('cl-plain');
    expect((await refused('bob', voteRequest(plain, basis, 'support'))).message).toContain('has no quorum policy');
    const own = await rc.claim('cl-own', { author: 'bob', quorumSize: 3 });
    expect((await refused('bob', voteRequest(own, basis, 'support'))).message).toContain('bob wrote claim cl-own and cannot vote');
    await rc.bind(claimId, 'ev-2@1');
    const stale = await refused('carol', voteRequest(claimId, basis, 'support'));
    expect(stale.code).toBe('CONFLICT');
    expect(stale.message).toContain('changed since you reviewed it');
    expect(rc.receiptCount()).toBe(before + 3); // two claims and one binding, no vote
  });

  it('stops counting votes cast on an earlier evidence set', async () => {
    const claimId = await rc.claim('cl-moved', { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    for (const v of ['bob', 'carol']) {
      rc.as(v);
      await rc.call('review:vote', voteRequest(claimId, basis, 'support'));
    }
    rc.as('admin');
    expect((await rc.call('review:get', { claimId })).quorum!.tier).toBe('VERIFIED');
    await rc.bind(claimId, 'ev-2@1');
    const q = (await rc.call('review:get', { claimId })).quorum!;
    expect(q).toMatchObject({ tier: 'UNVERIFIED', validVotes: 0, staleVotes: 2 });
  });

  it('lets a SUPPORTED decision through once the quorum survived', async () => {
    const claimId = await rc.claim('cl-survives', { quorumSize: 3 });
    await rc.bind(claimId, 'ev-1@1');
    const { basis } = await rc.call('review:get', { claimId });
    for (const v of ['bob', 'carol']) {
      rc.as(v);
      await rc.call('review:vote', voteRequest(claimId, basis, 'support'));
    }
    rc.as('dave');
    const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'quorum survived' });
    rc.as('erin');
    expect((await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).status).toBe('APPROVED');
    const review = await rc.call('review:get', { claimId });
    expect(review).toMatchObject({ decisionState: 'DECIDED', quorum: { tier: 'VERIFIED' } });
    expect(review.effectiveDecision?.decisionId).toBe(d.decisionId);
    rc.as('admin');
  });
});

describe('review:list', () => {
  it('shows each visible claim\'s derived status beside where its review stands', async () => {
    const items = (await rc.call('review:list', {})).items;
    const byId = new Map(items.map((i) => [i.claimId, i]));
    expect(byId.get('cl-survives')).toMatchObject({ decisionState: 'DECIDED', verdict: 'SUPPORTED', quorumTier: 'VERIFIED' });
    expect(byId.get('cl-abstain')).toMatchObject({ decisionState: 'PROPOSED', verdict: null, quorumTier: 'UNVERIFIED' });
    expect(byId.get('cl-plain')).toMatchObject({ decisionState: 'UNDECIDED', quorumTier: null });
    for (const i of items) expect(i.status).not.toBeNull();
  });
});
