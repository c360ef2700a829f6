import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
  rc.as('admin');
  await rc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'gus', displayName: 'Gus (admin, internal)', role: 'admin', tenants: ['acme'], maxClassification: 'internal' });
});
afterEach(() => rc.cleanup());

async function decide(claimId: string) {
  rc.as('bob');
  const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'reasoned' });
  rc.as('carol');
  await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
  return d.decisionId;
}

const REDACTED = 'an item outside your clearance blocks finalization; an admin cleared for the whole case can see which';

describe('the gate for an admin not cleared for everything', () => {
  it('redacts exactly the blockers that name a hidden item, by target or in their message', async () => {
    const open = await rc.evidence('ev-open');
    const secret = await rc.evidence('ev-secret', { classification: 'restricted' });
    await rc.claim('cl-plain');
    await rc.bind('cl-plain', open);
    await rc.claim('cl-leans');
    await rc.bind('cl-leans', open);
    await rc.bind('cl-leans', secret);
    const decisionId = await decide('cl-leans');
    const hiddenClaim = await rc.claim('cl-secret', { classification: 'restricted' });
    await rc.bind(hiddenClaim, open);
    rc.as('dave');
    await rc.call('evidence:transition', { revisionId: secret, to: 'REVOKED', reason: 'feed fabricated' });
    rc.as('admin');
    const plain = {
      kind: 'undecided',
      target: 'claim:cl-plain',
      message: 'claim:cl-plain is not decided: no decision has been proposed; propose and approve a decision, or record it UNRESOLVED',
      check: 'claim decisions',
    };
    const full = (await rc.call('case:gate', {})).blockers;
    expect(full.map((b) => b.target)).toEqual(['claim:cl-plain', `claim:${hiddenClaim}`, `decision:${decisionId}`, `revision:${secret}`]);
    // The decision is on a claim Gus sees; only its message names the hidden revision.
    expect(full[2]!.message).toContain(`rests on ${secret}`);
    rc.as('gus');
    expect((await rc.call('case:gate', {})).blockers).toEqual([
      plain,
      { kind: 'undecided', target: 'hidden', message: REDACTED, check: 'claim decisions' },
      { kind: 'revalidation', target: 'hidden', message: REDACTED, check: 'decided evidence' },
      { kind: 'revalidation', target: 'hidden', message: REDACTED, check: 'revocation convergence' },
    ]);
  });

  it('refuses finalizing, counting what is hidden without naming it', async () => {
    await rc.claim('cl-secret', { classification: 'restricted' });
    rc.as('gus');
    expect(await rc.raw('case:finalize', {})).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'case:finalize: 1 claim or revision is outside your clearance; finalizing needs an admin cleared for the whole case' },
    });
    const secret = await rc.evidence('ev-secret', { classification: 'restricted' });
    await rc.claim('cl-plain');
    await rc.bind('cl-plain', secret, 'FULL_SUPPORT', 'alice');
    rc.as('gus');
    expect(await rc.raw('case:finalize', {})).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'case:finalize: 2 claims or revisions are outside your clearance; finalizing needs an admin cleared for the whole case' },
    });
  });
});

describe('case:finalize', () => {
  it('certifies each claim\'s outcome in its receipt, and case:gate reports the finalization', async () => {
    const ev = await rc.evidence('ev-1');
    await rc.claim('cl-decided');
    await rc.bind('cl-decided', ev);
    const decisionId = await decide('cl-decided');
    await rc.claim('cl-open');
    rc.as('bob');
    await rc.call('claim:markUnresolved', { claimId: 'cl-open', reason: 'logs purged' });
    rc.as('admin');
    expect((await rc.call('case:gate', {})).lastFinalization).toBeNull();
    const done = await rc.call('case:finalize', {});
    expect(done).toMatchObject({ final: true, blockers: [] });
    const receipt = rc.session.db().prepare("SELECT seq, at, actor, body FROM audit_receipt WHERE action = 'case:finalize'").get() as { seq: number; at: string; actor: string; body: string };
    const { fingerprint } = await rc.call('decision:get', { decisionId });
    expect(JSON.parse(receipt.body)).toEqual({
      certifiedHead: done.certifiedHead,
      claims: [
        { claimId: 'cl-decided', generation: 1, decisionId, verdict: 'SUPPORTED', fingerprint },
        { claimId: 'cl-open', generation: 1, verdict: 'UNRESOLVED', unresolvedReason: 'logs purged' },
      ],
    });
    expect((await rc.call('case:gate', {})).lastFinalization).toEqual({ seq: receipt.seq, certifiedHead: done.certifiedHead, at: receipt.at, by: 'admin' });
  });
});
