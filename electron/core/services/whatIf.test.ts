import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

async function decide(claimId: string): Promise<void> {
  rc.as('bob');
  const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'seen in the logs' });
  rc.as('carol');
  await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
}

/** Claim cl-derived bound to ev-child, which derives (PROV) from ev-parent; acting as bob. */
async function derivedClaim(): Promise<{ parent: string; child: string }> {
  const parent = await rc.evidence('ev-parent');
  const child = await rc.evidence('ev-child');
  rc.as('admin');
  await rc.call('prov:record', { tenant: 'acme', classification: 'internal', nodes: [], edges: [{ type: 'wasDerivedFrom', from: `rev:${child}`, to: `rev:${parent}` }] });
  await rc.claim('cl-derived');
  await rc.bind('cl-derived', child);
  rc.as('bob');
  return { parent, child };
}

describe('whatIf:claim: single points of failure', () => {
  it('names the one item a supported claim rests on, and none where two independent sources agree', async () => {
    const a = await rc.evidence('ev-a');
    const b = await rc.evidence('ev-b');
    const c = await rc.evidence('ev-c');
    await rc.claim('cl-thin');
    await rc.bind('cl-thin', a);
    await rc.claim('cl-thick');
    await rc.bind('cl-thick', b);
    await rc.bind('cl-thick', c);
    rc.as('bob');
    const thin = await rc.call('whatIf:claim', { claimId: 'cl-thin' });
    expect(thin.status).toBe('SUPPORTED');
    expect(thin.points).toContainEqual({ ref: a, kind: 'bound', title: 'Evidence ev-a', statusAfter: 'INSUFFICIENT', lost: [a] });
    // Its original source is the same thread, named as a source.
    expect(thin.points.filter((p) => p.kind === 'source').map((p) => p.ref)).toEqual(['source:siem://acme/ev-a']);
    expect((await rc.call('whatIf:claim', { claimId: 'cl-thick' })).points).toEqual([]);
  });

  it('counts a refutation as a thread too: losing it turns MIXED into SUPPORTED', async () => {
    const a = await rc.evidence('ev-a');
    const r = await rc.evidence('ev-r');
    await rc.claim('cl-mixed');
    await rc.bind('cl-mixed', a);
    await rc.bind('cl-mixed', r, 'REFUTES');
    rc.as('bob');
    const { status, points } = await rc.call('whatIf:claim', { claimId: 'cl-mixed' });
    expect(status).toBe('MIXED');
    expect(points.find((p) => p.ref === r)).toMatchObject({ kind: 'bound', statusAfter: 'SUPPORTED' });
    expect(points.find((p) => p.ref === a)).toMatchObject({ kind: 'bound', statusAfter: 'REFUTED' });
  });

  it('names an unbound revision the bound evidence derives from (PROV), with what would be lost', async () => {
    const { parent, child } = await derivedClaim();
    const { points } = await rc.call('whatIf:claim', { claimId: 'cl-derived' });
    expect(points.find((p) => p.kind === 'derivedFrom')).toEqual({ ref: parent, kind: 'derivedFrom', title: 'Evidence ev-parent', statusAfter: 'INSUFFICIENT', lost: [child] });
  });

  it('answers a claim outside the clearance as missing', async () => {
    const hidden = await rc.claim('cl-secret', { classification: 'confidential' });
    rc.as('faye');
    expect((await rc.refusal('whatIf:claim', { claimId: hidden })).message).toBe(`whatIf:claim: no claim ${hidden} is visible to you`);
  });
});

describe('whatIf:revoke', () => {
  it('predicts the status flip and the remediation of the decision in force, and writes nothing', async () => {
    const a = await rc.evidence('ev-a');
    const b = await rc.evidence('ev-b');
    await rc.claim('cl-1');
    await rc.bind('cl-1', a);
    await rc.claim('cl-2');
    await rc.bind('cl-2', a);
    await rc.bind('cl-2', b);
    await decide('cl-1');
    const receipts = rc.receiptCount();
    rc.as('bob');
    const answer = await rc.call('whatIf:revoke', { revisionIds: [a] });
    expect(answer).toMatchObject({ claimsReached: 2, statusChanges: 1, remediations: 1, derived: [] });
    expect(answer.claims[0]).toMatchObject({ claimId: 'cl-1', statusBefore: 'SUPPORTED', statusAfter: 'INSUFFICIENT', projectionBefore: 'ELIGIBLE', opensRemediation: true, lost: [a] });
    expect(answer.claims[1]).toMatchObject({ claimId: 'cl-2', statusBefore: 'SUPPORTED', statusAfter: 'SUPPORTED', opensRemediation: false });
    expect(answer.claims[0]!.decisionId).not.toBeNull();
    expect(rc.receiptCount()).toBe(receipts);
    expect((await rc.call('evidence:get', { revisionId: a })).state).toBe('VALIDATED');
  });

  it('reaches claims through evidence derived from the revision', async () => {
    const { parent, child } = await derivedClaim();
    const answer = await rc.call('whatIf:revoke', { revisionIds: [parent] });
    expect(answer.derived).toEqual([child]);
    expect(answer.claims).toMatchObject([{ claimId: 'cl-derived', statusAfter: 'INSUFFICIENT', lost: [child] }]);
  });

  it('refuses a revision outside the clearance as missing, and leaves out claims the reader may not see', async () => {
    const secret = await rc.evidence('ev-secret', { classification: 'confidential' });
    const open = await rc.evidence('ev-open');
    await rc.claim('cl-open');
    await rc.bind('cl-open', open);
    // Outside the case's home scope a chosen name is scoped: use the id it answers.
    const hidden = await rc.claim('cl-secret', { classification: 'confidential' });
    await rc.bind(hidden, open);
    rc.as('faye');
    expect((await rc.refusal('whatIf:revoke', { revisionIds: [secret] })).message).toBe(`whatIf:revoke: no evidence revision ${secret} is visible to you`);
    const answer = await rc.call('whatIf:revoke', { revisionIds: [open] });
    expect(answer.claims.map((c) => c.claimId)).toEqual(['cl-open']);
    expect(answer.claimsReached).toBe(1);
  });
});

describe('whatIf:case', () => {
  it('ranks items by the decided claims they alone would flip, then by all claims', async () => {
    const shared = await rc.evidence('ev-shared');
    const lone = await rc.evidence('ev-lone');
    for (const id of ['cl-1', 'cl-2']) {
      await rc.claim(id);
      await rc.bind(id, shared);
    }
    await rc.claim('cl-3');
    await rc.bind('cl-3', lone);
    await decide('cl-3');
    rc.as('bob');
    const { items, total, claimsWithPoints } = await rc.call('whatIf:case', {});
    expect(claimsWithPoints).toBe(3);
    expect(items.filter((i) => i.kind === 'revision').map((i) => [i.ref, i.claims, i.decidedClaims])).toEqual([
      [lone, 1, 1],
      [shared, 2, 0],
    ]);
    expect(total).toBe(items.length);
    expect(items[0]!.sample).toEqual([{ claimId: 'cl-3', statusBefore: 'SUPPORTED', statusAfter: 'INSUFFICIENT', decided: true }]);
    const page = await rc.call('whatIf:case', { limit: 1, offset: 1 });
    expect(page.items).toEqual([items[1]]);
    // The ranking is kept between reads, and a decision made since moves it.
    await decide('cl-1');
    await decide('cl-2');
    rc.as('bob');
    const again = await rc.call('whatIf:case', {});
    expect(again.items.filter((i) => i.kind === 'revision').map((i) => [i.ref, i.claims, i.decidedClaims])).toEqual([
      [shared, 2, 2],
      [lone, 1, 1],
    ]);
  });
});
