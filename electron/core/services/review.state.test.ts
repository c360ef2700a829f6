import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

async function stateOf(claimId: string) {
  const r = await rc.call('review:get', { claimId });
  return { state: r.decisionState, message: r.decisionMessage, open: r.openProposal?.decisionId ?? null };
}

describe('where a claim\'s review stands (review:get, what the gate reads too)', () => {
  it('walks a claim from undecided through an open-ended approval, a newer proposal, to stale', async () => {
    const ev1 = await rc.evidence('ev-1');
    await rc.claim('cl-1');
    await rc.bind('cl-1', ev1);
    expect(await stateOf('cl-1')).toEqual({ state: 'UNDECIDED', message: 'no decision has been proposed', open: null });

    rc.as('bob');
    const first = await rc.call('decision:propose', { claimId: 'cl-1', verdict: 'NEEDS_MORE_EVIDENCE', rationale: 'one log only' });
    expect(await stateOf('cl-1')).toEqual({ state: 'PROPOSED', message: `proposal ${first.decisionId} (NEEDS_MORE_EVIDENCE) awaits approval by a second reviewer`, open: first.decisionId });
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: first.decisionId, fingerprint: first.fingerprint });
    const stillOpen = `approved decision ${first.decisionId} says NEEDS_MORE_EVIDENCE: the claim is still open`;
    expect(await stateOf('cl-1')).toEqual({ state: 'UNDECIDED', message: stillOpen, open: null });

    rc.as('dave');
    const second = await rc.call('decision:propose', { claimId: 'cl-1', verdict: 'SUPPORTED', rationale: 'the EDR log agrees now' });
    expect(await stateOf('cl-1')).toEqual({ state: 'PROPOSED', message: stillOpen, open: second.decisionId });

    const ev2 = await rc.evidence('ev-2');
    const ev3 = await rc.evidence('ev-3');
    await rc.bind('cl-1', ev2);
    await rc.bind('cl-1', ev3, 'REFUTES');
    expect(await stateOf('cl-1')).toEqual({
      state: 'STALE',
      message: `approved decision ${first.decisionId} is stale: revision ${ev2} was bound; revision ${ev3} was bound`,
      open: second.decisionId,
    });
  });

  it('says a claim was recorded UNRESOLVED, and why', async () => {
    await rc.claim('cl-u');
    rc.as('bob');
    await rc.call('claim:markUnresolved', { claimId: 'cl-u', reason: 'mail logs were purged' });
    expect(await stateOf('cl-u')).toEqual({ state: 'UNRESOLVED', message: 'recorded UNRESOLVED: mail logs were purged', open: null });
  });
});
