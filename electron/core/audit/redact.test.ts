import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAST, createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { openAsAttacker } from '../../testing/tamper';
import type { Actor } from '../context';
import { concernedItems } from './receiptConcerns';
import { formatHead } from './receiptViews';
import { redactVerification } from './redact';
import { verifyChain } from './verify';

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

describe('redactVerification', () => {
  const actor = (actorId: string): Actor => {
    const { passphrase: _passphrase, ...a } = CAST.find((c) => c.actorId === actorId)!;
    return a;
  };
  const seqOf = (action: string, target: string): number =>
    rc.session.db().prepare('SELECT seq FROM audit_receipt WHERE action = ? AND targets LIKE ?').pluck().get(action, `%${target}%`) as number;

  /** Breaks the chain at `seq` with `edit` (an attacker's SQL), and answers the verification as faye and bob are told it. */
  function breakAt(seq: number, edit: string, options: Parameters<typeof verifyChain>[1] = {}) {
    rc.session.close();
    const db = openAsAttacker(rc.casePath);
    try {
      db.prepare(edit).run(seq);
      const v = verifyChain(db, options);
      return { v, faye: redactVerification(db, actor('faye'), v), bob: redactVerification(db, actor('bob'), v) };
    } finally {
      db.close();
    }
  }

  it('withholds why a receipt about a claim outside the clearance does not verify, and tells a cleared reviewer', async () => {
    await rc.claim('cl-secret', { classification: 'restricted' });
    const seq = seqOf('claim:create', 'cl-secret');
    const { v, faye, bob } = breakAt(seq, `UPDATE audit_receipt SET at = '2020-01-01T00:00:00.000Z' WHERE seq = ?`);
    expect(v.firstBroken).toMatchObject({ seq, kind: 'chain' });
    expect(faye.firstBroken).toEqual({
      ...v.firstBroken,
      reason: `the receipt at seq ${seq} concerns an item outside your clearance and does not verify (chain); an admin cleared for it, or cli verify, shows why`,
    });
    expect(bob).toEqual(v);
  });

  it('reads the claims a broken finalization lists from its body', async () => {
    const ev = await rc.evidence('ev-1');
    await rc.claim('cl-secret', { classification: 'restricted' });
    await rc.bind('cl-secret~acme.restricted', ev);
    rc.as('bob');
    await rc.call('claim:markUnresolved', { claimId: 'cl-secret~acme.restricted', reason: 'logs purged' });
    rc.as('admin');
    await rc.call('case:finalize', {});
    const seq = seqOf('case:finalize', 'case:');
    const { v, faye, bob } = breakAt(seq, `UPDATE audit_receipt SET at = '2020-01-01T00:00:00.000Z' WHERE seq = ?`);
    expect(v.firstBroken?.seq).toBe(seq);
    expect(faye.firstBroken?.reason).toMatch(/^the receipt at seq \d+ concerns an item outside your clearance/);
    expect(bob).toEqual(v);
  });

  it('names a break whose targets hold something other than names (a tampered file) as it is, when what they name is visible', async () => {
    await rc.claim('cl-open');
    const seq = seqOf('claim:create', 'cl-open');
    const { v, faye } = breakAt(seq, `UPDATE audit_receipt SET targets = '["claim:cl-open", 7, null]' WHERE seq = ?`);
    expect(v.firstBroken?.seq).toBe(seq);
    expect(faye).toEqual(v);
  });

  it('names a break past the last receipt (a truncated tail) as it is: there is no receipt to withhold', async () => {
    const length = rc.receiptCount();
    const { v, faye } = breakAt(1, `UPDATE audit_receipt SET actor = actor WHERE seq = ?`, { expectedHead: formatHead(length + 3, 'ab'.repeat(32)) });
    expect(v.firstBroken).toMatchObject({ seq: length + 1, kind: 'head' });
    expect(faye).toEqual(v);
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
