import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());


/** A claim by alice with two bound revisions and an open proposal by bob. */
async function proposed(verdict: 'SUPPORTED' | 'REFUTED' | 'UNRESOLVED' | 'NEEDS_MORE_EVIDENCE' = 'SUPPORTED') {
  const ev1 = await rc.evidence('ev-login');
  const ev2 = await rc.evidence('ev-edr');
  await rc.claim('cl-1');
  await rc.bind('cl-1', ev1);
  await rc.bind('cl-1', ev2);
  rc.as('bob');
  const d = await rc.call('decision:propose', { claimId: 'cl-1', verdict, rationale: 'two independent logs agree' });
  return { d, ev1, ev2 };
}

describe('decision fingerprints', () => {
  it('fingerprints the claim generation, verdict and sorted exact revision refs', async () => {
    const { d, ev1, ev2 } = await proposed();
    expect(d.evidenceRefs).toEqual([ev2, ev1].sort());
    expect(d.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(d).toMatchObject({ status: 'PROPOSED', generation: 1, current: true, changes: [], effective: false });
    // Same basis, other verdict: another fingerprint.
    await rc.call('decision:withdraw', { decisionId: d.decisionId, reason: 'wrong verdict' });
    const other = await rc.call('decision:propose', { claimId: 'cl-1', verdict: 'REFUTED', rationale: 'r' });
    expect(other.fingerprint).not.toBe(d.fingerprint);
  });

  it('refuses an approval carrying a stale fingerprint and names the revision that was bound since', async () => {
    const { d } = await proposed();
    const ev3 = await rc.evidence('ev-proxy');
    await rc.bind('cl-1', ev3, 'REFUTES');
    rc.as('carol');
    const before = rc.receiptCount();
    const err = await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain(`${d.decisionId} is stale`);
    expect(err.message).toContain(`revision ${ev3} was bound`);
    expect(rc.receiptCount()).toBe(before);
    const got = await rc.call('decision:get', { decisionId: d.decisionId });
    expect(got).toMatchObject({ status: 'PROPOSED', current: false, changes: [`revision ${ev3} was bound`] });
    // decision:verify (read-only) refuses the same way.
    expect(await rc.refusal('decision:verify', { decisionId: d.decisionId, fingerprint: d.fingerprint })).toEqual({
      code: 'CONFLICT',
      message: `decision:verify: ${d.decisionId} is stale: revision ${ev3} was bound`,
    });
  });

  it('refuses an approval carrying a fingerprint other than the proposal\'s', async () => {
    const { d } = await proposed();
    rc.as('carol');
    const err = await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: 'f'.repeat(64) });
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain('is not the fingerprint of');
  });

  it('counts a stale change in evidence outside the approver\'s clearance without naming it', async () => {
    const { d } = await proposed();
    const secret = await rc.evidence('ev-secret', { classification: 'restricted' });
    await rc.bind('cl-1', secret);
    rc.as('faye');
    const got = await rc.call('decision:get', { decisionId: d.decisionId });
    expect(got.changes).toEqual(['1 revision outside your clearance was bound']);
    expect(JSON.stringify(got)).not.toContain(secret);
    const err = await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    expect(err.message).not.toContain(secret);
  });

  it('approves a current proposal, makes it effective, and a later approval supersedes it', async () => {
    const { d } = await proposed();
    rc.as('carol');
    const approved = await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint, note: 'checked both logs' });
    expect(approved).toMatchObject({ status: 'APPROVED', decidedBy: 'carol', effective: true, current: true });
    expect((await rc.call('decision:verify', { decisionId: d.decisionId, fingerprint: d.fingerprint })).decisionId).toBe(d.decisionId);
    rc.as('dave');
    const next = await rc.call('decision:propose', { claimId: 'cl-1', verdict: 'UNRESOLVED', rationale: 'on reflection the logs conflict' });
    rc.as('erin');
    await rc.call('decision:approve', { decisionId: next.decisionId, fingerprint: next.fingerprint });
    const list = await rc.call('decision:list', { claimId: 'cl-1' });
    expect(list.items.map((x) => [x.decisionId, x.status, x.effective])).toEqual([
      [d.decisionId, 'APPROVED', false],
      [next.decisionId, 'APPROVED', true],
    ]);
  });
});

describe('four eyes and roles', () => {
  it('refuses the proposer approving their own proposal', async () => {
    const { d } = await proposed();
    const err = await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    expect(err).toMatchObject({ code: 'FORBIDDEN' });
    expect(err.message).toContain('bob proposed');
    expect(err.message).toContain('four eyes');
  });

  it('refuses the claim\'s author approving a decision on it, even as an admin', async () => {
    await rc.evidence('ev-a');
    await rc.claim('cl-admin', { author: 'admin' });
    await rc.bind('cl-admin', 'ev-a@1');
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId: 'cl-admin', verdict: 'SUPPORTED', rationale: 'r' });
    rc.as('admin');
    const err = await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('wrote claim cl-admin');
  });

  it('refuses approval by an analyst, and rejection by anyone but a reviewer other than the proposer', async () => {
    const { d } = await proposed();
    rc.as('alice');
    expect((await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).message).toContain('needs the role reviewer or admin; alice is analyst');
    expect((await rc.refusal('decision:reject', { decisionId: d.decisionId, reason: 'no' })).code).toBe('FORBIDDEN');
    rc.as('bob');
    expect((await rc.refusal('decision:reject', { decisionId: d.decisionId, reason: 'no' })).message).toContain('withdraw it');
    rc.as('carol');
    expect((await rc.refusal('decision:withdraw', { decisionId: d.decisionId, reason: 'no' })).message).toContain('only bob');
    const rejected = await rc.call('decision:reject', { decisionId: d.decisionId, reason: 'rationale does not cover the proxy log' });
    expect(rejected).toMatchObject({ status: 'REJECTED', decisionNote: 'rationale does not cover the proxy log' });
    expect((await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).code).toBe('CONFLICT');
  });

  it('lets analysts propose but refuses a second open proposal and a verdict without evidence', async () => {
    await rc.claim('cl-empty');
    rc.as('alice');
    expect((await rc.refusal('decision:propose', { claimId: 'cl-empty', verdict: 'SUPPORTED', rationale: 'r' })).message).toContain('has no bound evidence');
    const d = await rc.call('decision:propose', { claimId: 'cl-empty', verdict: 'NEEDS_MORE_EVIDENCE', rationale: 'nothing bound yet' });
    expect((await rc.refusal('decision:propose', { claimId: 'cl-empty', verdict: 'UNRESOLVED', rationale: 'r' })).message).toContain(`open proposal ${d.decisionId}`);
  });

  it('refuses a reviewer whose clearance misses bound evidence, without naming it', async () => {
    await rc.evidence('ev-open');
    const secret = await rc.evidence('ev-classified', { classification: 'restricted' });
    await rc.claim('cl-2');
    await rc.bind('cl-2', 'ev-open@1');
    await rc.bind('cl-2', secret);
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId: 'cl-2', verdict: 'SUPPORTED', rationale: 'r' });
    rc.as('faye');
    const err = await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('1 bound evidence revision is outside your clearance');
    expect(err.message).not.toContain(secret);
    expect((await rc.call('decision:get', { decisionId: d.decisionId })).hiddenEvidenceRefs).toBe(1);
  });
});

describe('decisions out of reach', () => {
  it('answers a decision on a claim outside your clearance exactly as one that does not exist', async () => {
    const secret = await rc.evidence('ev-secret-1', { classification: 'restricted' });
    const claimId = await rc.claim('cl-secret', { classification: 'restricted' });
    await rc.bind(claimId, secret);
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'r' });
    rc.as('faye');
    expect(await rc.refusal('decision:get', { decisionId: d.decisionId })).toEqual({ code: 'NOT_FOUND', message: `decision:get: no decision ${d.decisionId} is visible to you` });
    expect(await rc.refusal('decision:get', { decisionId: 'dec-nowhere' })).toEqual({ code: 'NOT_FOUND', message: 'decision:get: no decision dec-nowhere is visible to you' });
  });

  it('refuses to settle a decision that is no longer an open proposal, naming its status', async () => {
    const { d } = await proposed();
    await rc.call('decision:withdraw', { decisionId: d.decisionId, reason: 'wrong verdict' });
    rc.as('carol');
    expect(await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).toEqual({
      code: 'CONFLICT',
      message: `decision:approve: decision ${d.decisionId} is WITHDRAWN, not PROPOSED; only an open proposal can be approved, rejected or withdrawn`,
    });
  });

  it('says a decision record may have been altered when its fingerprint moved but its basis did not', async () => {
    const { d } = await proposed();
    const db = rc.session.db();
    db.exec('DROP TRIGGER decision_basis_immutable');
    db.prepare('UPDATE decision SET fingerprint = ? WHERE decision_id = ?').run('0'.repeat(64), d.decisionId);
    expect(await rc.call('decision:get', { decisionId: d.decisionId })).toMatchObject({
      current: false,
      changes: ['the fingerprint no longer matches although generation and evidence did not move: the decision record may have been altered; run audit:verify'],
    });
  });
});

describe('what a refused approval or check says', () => {
  it('lists every change that made a proposal stale', async () => {
    const { d } = await proposed();
    const ev3 = await rc.evidence('ev-proxy');
    const ev4 = await rc.evidence('ev-dns');
    await rc.bind('cl-1', ev3, 'REFUTES');
    await rc.bind('cl-1', ev4);
    rc.as('carol');
    expect((await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).message).toBe(
      `decision:approve: ${d.decisionId} is stale: revision ${ev4} was bound; revision ${ev3} was bound; propose a new decision on the claim as it is now`,
    );
    expect(await rc.refusal('decision:verify', { decisionId: d.decisionId, fingerprint: d.fingerprint })).toEqual({
      code: 'CONFLICT',
      message: `decision:verify: ${d.decisionId} is stale: revision ${ev4} was bound; revision ${ev3} was bound`,
    });
  });

  it('decision:verify refuses a fingerprint that is not the decision\'s, quoting both', async () => {
    const { d } = await proposed();
    const other = 'ab'.repeat(32);
    expect(await rc.refusal('decision:verify', { decisionId: d.decisionId, fingerprint: other })).toEqual({
      code: 'CONFLICT',
      message: `decision:verify: ${other.slice(0, 12)}… is not the fingerprint of ${d.decisionId} (${d.fingerprint.slice(0, 12)}…); you are looking at a different decision`,
    });
    expect((await rc.call('decision:verify', { decisionId: d.decisionId, fingerprint: d.fingerprint })).decisionId).toBe(d.decisionId);
    expect(await rc.refusal('decision:verify', { decisionId: 'dec-nowhere', fingerprint: d.fingerprint })).toEqual({
      code: 'NOT_FOUND',
      message: 'decision:verify: no decision dec-nowhere is visible to you',
    });
  });

  it('refuses an UNRESOLVED verdict on a quorum claim before the quorum has voted', async () => {
    const ev = await rc.evidence('ev-q');
    await rc.claim('cl-q', { quorumSize: 3 });
    await rc.bind('cl-q', ev);
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId: 'cl-q', verdict: 'UNRESOLVED', rationale: 'cannot tell' });
    rc.as('carol');
    expect((await rc.refusal('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint })).message).toBe(
      "decision:approve: claim cl-q cannot be decided UNRESOLVED: it requires a quorum review of 3 and only 0 reviewers have voted validly on it as it is now; collect the quorum's votes (review:vote, abstaining is allowed) before recording it UNRESOLVED",
    );
  });
});

describe('decision:list', () => {
  it('filters by claim and by status', async () => {
    const { d } = await proposed();
    const ev = await rc.evidence('ev-other');
    await rc.claim('cl-2');
    await rc.bind('cl-2', ev);
    rc.as('dave');
    const other = await rc.call('decision:propose', { claimId: 'cl-2', verdict: 'REFUTED', rationale: 'the other log' });
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: other.decisionId, fingerprint: other.fingerprint });
    const ids = async (req: { claimId?: string; status?: 'PROPOSED' | 'APPROVED' }) => (await rc.call('decision:list', req)).items.map((x) => x.decisionId);
    expect(await ids({})).toEqual([d.decisionId, other.decisionId]);
    expect(await ids({ claimId: 'cl-2' })).toEqual([other.decisionId]);
    expect(await ids({ status: 'PROPOSED' })).toEqual([d.decisionId]);
    expect(await ids({ claimId: 'cl-1', status: 'APPROVED' })).toEqual([]);
  });
});
