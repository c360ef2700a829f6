import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';

/**
 * "Awaiting me" in review:list: what each reviewer owes a claim, by the rules the acts check.
 * Each expectation is then held to the act itself: what is listed as owed is accepted, what is not
 * is refused.
 */
let rc: ReviewCase;
const complete = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };

beforeAll(async () => {
  rc = await createReviewCase();
  const ev = await rc.evidence('ev-1');
  const secret = await rc.evidence('ev-secret', { classification: 'confidential' });
  await rc.claim('cl-prop');
  await rc.bind('cl-prop', ev);
  await rc.claim('cl-hidden');
  await rc.bind('cl-hidden', ev);
  await rc.bind('cl-hidden', secret);
  await rc.claim('cl-quorum', { quorumSize: 3 });
  await rc.bind('cl-quorum', ev);
  rc.as('bob');
  await rc.call('decision:propose', { claimId: 'cl-prop', verdict: 'SUPPORTED', rationale: 'the sign-in log shows it' });
  await rc.call('decision:propose', { claimId: 'cl-hidden', verdict: 'SUPPORTED', rationale: 'both logs agree' });
});
afterAll(() => rc.cleanup());

async function owed(actorId: string): Promise<Record<string, string | null>> {
  rc.as(actorId);
  return Object.fromEntries((await rc.call('review:list', {})).items.map((i) => [i.claimId, i.awaitingMe]));
}

describe('review:list awaitingMe', () => {
  it('a proposal awaits another reviewer, never its proposer, the claim author or an analyst', async () => {
    expect((await owed('carol'))['cl-prop']).toBe('approve');
    expect((await owed('bob'))['cl-prop']).toBeNull();
    expect((await owed('alice'))['cl-prop']).toBeNull();
  });

  it('a proposal citing evidence above the reviewer\'s clearance does not await them (approving it would be refused)', async () => {
    expect((await owed('carol'))['cl-hidden']).toBe('approve');
    expect((await owed('faye'))['cl-hidden']).toBeNull();
    expect((await owed('faye'))['cl-prop']).toBe('approve');
    rc.as('faye');
    const [d] = (await rc.call('review:get', { claimId: 'cl-hidden' })).decisions;
    expect((await rc.refusal('decision:approve', { decisionId: d!.decisionId, fingerprint: d!.fingerprint })).code).toBe('FORBIDDEN');
  });

  it('a quorum vote is owed by each reviewer who has none on the current basis, and no longer once cast', async () => {
    expect((await owed('dave'))['cl-quorum']).toBe('vote');
    expect((await owed('alice'))['cl-quorum']).toBeNull();
    rc.as('dave');
    const { basis } = await rc.call('review:get', { claimId: 'cl-quorum' });
    await rc.call('review:vote', { claimId: 'cl-quorum', basis, refuted: false, checklist: complete, reason: 'quote matches the log' });
    expect((await owed('dave'))['cl-quorum']).toBeNull();
    expect((await owed('erin'))['cl-quorum']).toBe('vote');
  });

  it('a proposal that went stale awaits no one; once approved it awaits no one either', async () => {
    rc.as('carol');
    const [d] = (await rc.call('review:get', { claimId: 'cl-prop' })).decisions;
    await rc.call('decision:approve', { decisionId: d!.decisionId, fingerprint: d!.fingerprint });
    expect((await owed('erin'))['cl-prop']).toBeNull();
    // A new proposal, then the claim moves under it: stale, so approving it would be refused.
    rc.as('bob');
    await rc.call('decision:propose', { claimId: 'cl-prop', verdict: 'REFUTED', rationale: 'on reflection the log is a replay' });
    expect((await owed('erin'))['cl-prop']).toBe('approve');
    await rc.bind('cl-prop', await rc.evidence('ev-2'));
    expect((await owed('erin'))['cl-prop']).toBeNull();
  });
});
