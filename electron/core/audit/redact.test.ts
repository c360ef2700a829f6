import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { concernedItems } from './receiptConcerns';

/**
 * What audit:list withholds from a reviewer outside an item's clearance (DESIGN §3.8). The same
 * rule decides the team server's row-level security (team.test.ts holds the two equal).
 */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

const WITHHELD = { withheld: 'this receipt concerns evidence or a claim outside your clearance' };

async function listAs(actorId: string) {
  rc.as(actorId);
  return (await rc.call('audit:list', { limit: 500 })).items;
}

describe('audit:list', () => {
  it('withholds the receipt of a source document outside the clearance: its title, compartment and hash', async () => {
    rc.as('admin');
    const { sourceId } = await rc.call('source:add', {
      title: 'HR interview notes: J. Doe', content: 'Interview of J. Doe about the night of 19 November.', mediaType: 'text/plain', tenant: 'acme', classification: 'restricted',
    });
    const seq = (rc.session.db().prepare("SELECT seq FROM audit_receipt WHERE action = 'source:add'").get() as { seq: number }).seq;
    const faye = (await listAs('faye')).find((r) => r.seq === seq)!;
    expect(faye).toMatchObject({ targets: ['hidden'], body: WITHHELD, artifacts: {}, postStateFp: null });
    expect(JSON.stringify(await listAs('faye'))).not.toContain('HR interview');
    expect(JSON.stringify(await listAs('faye'))).not.toContain(sourceId);
    // Bob is cleared for restricted material and reads it.
    expect((await listAs('bob')).find((r) => r.seq === seq)).toMatchObject({ targets: [`source:${sourceId}`], body: { title: 'HR interview notes: J. Doe' } });
  });

  it('withholds a finalization from a reviewer not cleared for every claim it lists', async () => {
    const ev = await rc.evidence('ev-1');
    await rc.claim('cl-open');
    await rc.claim('cl-secret', { classification: 'restricted' });
    for (const claimId of ['cl-open', 'cl-secret~acme.restricted']) {
      await rc.bind(claimId, ev);
      rc.as('bob');
      await rc.call('claim:markUnresolved', { claimId, reason: 'logs purged' });
    }
    rc.as('admin');
    expect(await rc.call('case:finalize', {})).toMatchObject({ final: true });
    const seq = (rc.session.db().prepare("SELECT seq FROM audit_receipt WHERE action = 'case:finalize'").get() as { seq: number }).seq;
    expect((await listAs('faye')).find((r) => r.seq === seq)).toMatchObject({ action: 'case:finalize', targets: ['hidden'], body: WITHHELD });
    expect(JSON.stringify(await listAs('faye'))).not.toContain('cl-secret');
    expect((await listAs('bob')).find((r) => r.seq === seq)!.body).toMatchObject({ claims: [{ claimId: 'cl-open' }, { claimId: 'cl-secret~acme.restricted' }] });
  });
});

describe('concernedItems', () => {
  it('is the scoped targets, and for a finalization every claim it lists', () => {
    expect(concernedItems('claim:bind', ['claim:a', 'revision:r@1', 'case:x', 'actor:bob'], () => ({}))).toEqual(['claim:a', 'revision:r@1']);
    expect(concernedItems('source:add', ['source:s1'], () => ({}))).toEqual(['source:s1']);
    expect(concernedItems('case:finalize', ['case:x'], () => ({ claims: [{ claimId: 'a' }, { claimId: 'b' }] }))).toEqual(['claim:a', 'claim:b']);
    // A finalization whose body does not list its claims names an item nobody holds: withheld from all.
    expect(concernedItems('case:finalize', ['case:x'], () => ({}))).toEqual(['claim:\u0000unlisted']);
    expect(concernedItems('case:finalize', ['case:x'], () => ({ claims: [{ claimId: 7 }] }))).toEqual(['claim:\u0000unlisted']);
    // Other actions' bodies are never read.
    expect(concernedItems('claim:create', ['claim:a'], () => { throw new Error('read'); })).toEqual(['claim:a']);
  });
});
