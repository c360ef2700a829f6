import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

async function propose(claimId: string, verdict: 'SUPPORTED' | 'REFUTED' | 'UNRESOLVED' = 'SUPPORTED', by = 'bob') {
  rc.as(by);
  return rc.call('decision:propose', { claimId, verdict, rationale: 'reasoned' });
}

async function decide(claimId: string, verdict: 'SUPPORTED' | 'REFUTED' | 'UNRESOLVED' = 'SUPPORTED') {
  const d = await propose(claimId, verdict);
  rc.as('carol');
  await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
  rc.as('admin');
  return d;
}

async function blockers() {
  rc.as('admin');
  return (await rc.call('case:gate', {})).blockers;
}

describe('what the gate says blocks a case', () => {
  it('a decided claim with a newer proposal still open', async () => {
    const ev = await rc.evidence('ev-1');
    await rc.claim('cl-1');
    await rc.bind('cl-1', ev);
    await decide('cl-1');
    expect(await blockers()).toEqual([]);
    await propose('cl-1', 'REFUTED', 'dave');
    expect(await blockers()).toEqual([
      { kind: 'open-proposal', target: 'claim:cl-1', message: 'claim:cl-1 is decided but a newer proposal is still open; approve, reject or withdraw it', check: 'claim decisions' },
    ]);
  });

  it('a SUPPORTED decision whose quorum no longer survives, with the tier and why', async () => {
    const ev = await rc.evidence('ev-q');
    await rc.claim('cl-q', { quorumSize: 2 });
    await rc.bind('cl-q', ev);
    const { basis } = await rc.call('review:get', { claimId: 'cl-q' });
    const checklist = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
    for (const v of ['dave', 'erin']) {
      rc.as(v);
      await rc.call('review:vote', { claimId: 'cl-q', basis, refuted: false, checklist, reason: 'holds' });
    }
    await decide('cl-q');
    rc.as('erin');
    await rc.call('review:vote', { claimId: 'cl-q', basis, refuted: null, checklist, reason: 'changed my mind, abstaining' });
    const q = (await rc.call('review:get', { claimId: 'cl-q' })).quorum!;
    expect(q.tier).not.toBe('VERIFIED');
    expect(await blockers()).toEqual([
      { kind: 'quorum', target: 'claim:cl-q', message: `claim:cl-q is decided SUPPORTED but its quorum review is now ${q.tier} (${q.reason})`, check: 'claim decisions' },
    ]);
  });

  it('a MIXED claim (usable support and refutation) until a current decision resolves it', async () => {
    const yes = await rc.evidence('ev-yes');
    const no = await rc.evidence('ev-no');
    await rc.claim('cl-m');
    await rc.bind('cl-m', yes);
    await rc.bind('cl-m', no, 'REFUTES');
    expect((await rc.call('claim:get', { claimId: 'cl-m' })).status).toBe('MIXED');
    const mixed = { kind: 'dispute', target: 'claim:cl-m', message: 'claim cl-m is MIXED (usable support and refutation) and no current decision resolves it', check: 'disputes' };
    expect(await blockers()).toContainEqual(mixed);
    await decide('cl-m', 'UNRESOLVED');
    expect(await blockers()).toEqual([]);
  });
});

describe('revocation under a decision', () => {
  it('blocks on the decision resting on revoked evidence, then on its open remediation once the worker converged', async () => {
    const ev = await rc.evidence('ev-r');
    await rc.claim('cl-r');
    await rc.bind('cl-r', ev);
    const d = await decide('cl-r');
    rc.as('dave');
    await rc.call('evidence:transition', { revisionId: ev, to: 'REVOKED', reason: 'feed fabricated' });
    await rc.call('revocation:runWorker', { maxJobs: 10 });
    const [remediation] = (await rc.call('remediation:list', { status: 'OPEN' })).items;
    expect(await blockers()).toEqual([
      {
        kind: 'revalidation',
        target: `decision:${d.decisionId}`,
        message: `decision ${d.decisionId} on claim cl-r rests on ${ev}, which is REVOKED; remediate it (retain a successor revision, re-review or withdraw)`,
        check: 'decided evidence',
      },
      {
        kind: 'remediation',
        target: 'claim:cl-r',
        message: `remediation ${remediation!.remediationId}: decision ${d.decisionId} on claim cl-r fell from ELIGIBLE to PARTIALLY_SUPPORTED; retain it on a successor revision, request a re-review or withdraw it`,
        check: 'open remediations',
      },
    ]);
  });
});
