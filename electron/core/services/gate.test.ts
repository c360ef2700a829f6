import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { verifyCaseFile } from '../audit/verifyFile';
import { tableDigest } from '../store/digest';
import { verifyChain } from '../audit/verify';
import { gateBlockers } from './gate';
import { GATE_CHECKS } from './gateChecks';
import { TEST_PASSPHRASE } from '../../testing/testCase';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

async function decide(claimId: string, verdict: 'SUPPORTED' | 'REFUTED' | 'UNRESOLVED' | 'NEEDS_MORE_EVIDENCE' = 'SUPPORTED') {
  rc.as('bob');
  const d = await rc.call('decision:propose', { claimId, verdict, rationale: 'reasoned' });
  rc.as('carol');
  await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
  rc.as('admin');
  return d;
}

const kinds = (blockers: { kind: string; target: string }[]) => blockers.map((b) => `${b.kind} ${b.target}`).sort();

describe('case:gate', () => {
  it('says the case is not ready, counts blockers by kind, and pages through them in order', async () => {
    const ev = await rc.evidence('ev-1');
    for (const id of ['cl-a', 'cl-b', 'cl-c']) await rc.claim(id);
    await rc.claim('cl-p');
    await rc.bind('cl-p', ev);
    rc.as('bob');
    await rc.call('decision:propose', { claimId: 'cl-p', verdict: 'SUPPORTED', rationale: 'reasoned' });
    rc.as('admin');
    const whole = await rc.call('case:gate', {});
    expect(whole.ready).toBe(false);
    expect(whole.total).toBe(4);
    expect(whole.blockers).toHaveLength(4);
    expect(whole.byKind).toMatchObject({ undecided: 3, 'open-proposal': 1, 'stale-fingerprint': 0, chain: 0 });
    const page = await rc.call('case:gate', { offset: 1, limit: 2 });
    expect(page).toMatchObject({ ready: false, total: 4, byKind: whole.byKind });
    expect(page.blockers).toEqual(whole.blockers.slice(1, 3));
    expect((await rc.call('case:gate', { offset: 4 })).blockers).toEqual([]);
  });
});

describe('case:finalize', () => {
  it('lists every blocker kind it knows, writes nothing while blocked, then finalizes once they are cleared', async () => {
    const ev1 = await rc.evidence('ev-1');
    const ev2 = await rc.evidence('ev-2');
    const ev3 = await rc.evidence('ev-3');
    await rc.claim('cl-undecided');
    await rc.bind('cl-undecided', ev1);
    await rc.claim('cl-proposed');
    await rc.bind('cl-proposed', ev1);
    rc.as('bob');
    const open = await rc.call('decision:propose', { claimId: 'cl-proposed', verdict: 'REFUTED', rationale: 'r' });
    await rc.claim('cl-stale');
    await rc.bind('cl-stale', ev1);
    await decide('cl-stale');
    await rc.bind('cl-stale', ev2);
    await rc.claim('cl-disputed');
    await rc.bind('cl-disputed', ev3);
    await decide('cl-disputed');
    await rc.call('evidence:transition', { revisionId: ev3, to: 'DISPUTED', reason: 'EDR and inventory disagree' });
    await rc.claim('cl-more');
    await rc.bind('cl-more', ev1);
    await decide('cl-more', 'NEEDS_MORE_EVIDENCE');

    const before = tableDigest(rc.casePath);
    const blocked = await rc.call('case:finalize', {});
    expect(blocked.final).toBe(false);
    expect(blocked.certifiedHead).toBeNull();
    expect(kinds(blocked.blockers)).toEqual(
      [
        'undecided claim:cl-undecided',
        'open-proposal claim:cl-proposed',
        'stale-fingerprint claim:cl-stale',
        `dispute revision:${ev3}`,
        // The dispute fenced ev-3's dependents; until the worker converges that is open work too.
        `revalidation revision:${ev3}`,
        'undecided claim:cl-more',
      ].sort(),
    );
    for (const b of blocked.blockers) expect(b.message.length).toBeGreaterThan(20);
    expect(tableDigest(rc.casePath)).toBe(before);
    expect((await rc.call('case:gate', {})).blockers).toEqual(blocked.blockers);

    // Clear them one by one, the way reviewers would.
    await decide('cl-undecided', 'UNRESOLVED');
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: open.decisionId, fingerprint: open.fingerprint });
    rc.as('admin');
    await decide('cl-stale');
    await rc.call('evidence:transition', { revisionId: ev3, to: 'VALIDATED', reason: 'inventory was stale; EDR confirmed' });
    await rc.call('revocation:runWorker', { maxJobs: 10 });
    await decide('cl-more', 'REFUTED');

    const headBefore = (await rc.call('audit:head', {})).head;
    const done = await rc.call('case:finalize', {});
    expect(done).toMatchObject({ final: true, blockers: [], certifiedHead: headBefore });
    const head = await rc.call('audit:head', {});
    expect(done.head).toBe(head.head);
    const receipt = (await rc.call('audit:list', { limit: 1 })).items[0]!;
    expect(receipt.action).toBe('case:finalize');
    expect(receipt.body.certifiedHead).toBe(headBefore);
    expect((receipt.body.claims as unknown[]).length).toBe(5);
    expect(await rc.call('case:gate', {})).toMatchObject({ ready: true, final: true, lastFinalization: { seq: head.seq, certifiedHead: headBefore } });

    // FINAL locks the case (issue 9.6): every change is refused, with nothing written, until an
    // admin reopens it with a reason.
    const locked = tableDigest(rc.casePath);
    for (const [as, channel, request] of [
      ['alice', 'claim:create', { claimId: 'cl-late', statement: 'late', tenant: 'acme', classification: 'internal' }],
      ['bob', 'evidence:transition', { revisionId: ev3, to: 'REVOKED', reason: 'after the fact' }],
      ['admin', 'case:finalize', {}],
    ] as const) {
      rc.as(as);
      const refused = await rc.raw(channel, request);
      expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining('the case is FINAL') } });
    }
    expect(tableDigest(rc.casePath)).toBe(locked);
    rc.as('bob');
    expect(await rc.raw('case:reopen', { reason: 'new evidence' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    rc.as('admin');
    expect(await rc.raw('case:reopen', { reason: '  ' })).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['reason'] }] } });
    const reopened = await rc.call('case:reopen', { reason: 'the ISP sent the missing NetFlow; re-review exfil volume' });
    expect(reopened.finalizationSeq).toBe(head.seq);
    expect(await rc.raw('case:reopen', { reason: 'again' })).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining('not FINAL') } });
    await rc.claim('cl-late');
    expect(await rc.call('case:gate', {})).toMatchObject({ final: false, lastFinalization: { seq: head.seq } });
    expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
  });

  it('runs checks other capabilities register, and blocks on a broken audit chain', async () => {
    await rc.claim('cl-x');
    await decide('cl-x', 'UNRESOLVED');
    const testCheck = {
      name: 'test remediation',
      blockers: (ctx: Parameters<typeof gateBlockers>[0]) =>
        (ctx.db.prepare("SELECT claim_id FROM claim WHERE claim_id = 'cl-x'").all() as { claim_id: string }[]).map((r) => ({
          kind: 'remediation' as const,
          target: `claim:${r.claim_id}`,
          message: `remediation for ${r.claim_id} is open`,
        })),
    };
    const ctx = rc.session.context();
    expect(gateBlockers(ctx, verifyChain(ctx.db), [...GATE_CHECKS, testCheck])).toEqual([{ kind: 'remediation', target: 'claim:cl-x', message: 'remediation for cl-x is open', check: 'test remediation' }]);
    expect((await rc.call('case:gate', {})).blockers).toEqual([]);
    const raw = new Database(rc.casePath);
    raw.exec('DROP TRIGGER audit_receipt_no_update');
    raw.prepare("UPDATE audit_receipt SET at = '2020-01-01T00:00:00.000Z' WHERE seq = 3").run();
    raw.close();
    const broken = {
      kind: 'chain',
      target: 'audit:seq:3',
      message: "the audit chain is broken at seq 3 (chain): hash does not cover the stored receipt: a field was edited (or the previous receipt's signature was replaced)",
      check: 'audit chain',
    };
    // Finalizing verifies the whole chain, whatever was verified before.
    expect(await rc.call('case:finalize', {})).toMatchObject({ final: false, blockers: [broken] });
    // The gate shown in the window verifies routinely, from where the last verification ended
    // (the receipt there is unchanged); the first one after opening the case verifies it all.
    expect((await rc.call('case:gate', {})).blockers).toEqual([]);
    await rc.call('case:open', { path: rc.casePath });
    rc.as('admin');
    expect((await rc.call('case:gate', {})).blockers).toEqual([broken]);
  });

  it('is refused to non-admins and to an admin not cleared for the whole case', async () => {
    await rc.claim('cl-secret', { classification: 'restricted' });
    rc.as('bob');
    expect(await rc.raw('case:finalize', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    rc.as('admin');
    await rc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'gus', displayName: 'Gus (admin, internal)', role: 'admin', tenants: ['acme'], maxClassification: 'internal' });
    rc.as('gus');
    const env = await rc.raw('case:finalize', {});
    expect(env).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    if (!env.ok) expect(env.error.message).not.toContain('cl-secret');
    const gate = await rc.call('case:gate', {});
    expect(gate.blockers).toEqual([
      { kind: 'undecided', target: 'hidden', message: 'an item outside your clearance blocks finalization; an admin cleared for the whole case can see which', check: 'claim decisions' },
    ]);
    expect(JSON.stringify(gate)).not.toContain('cl-secret');
  });
});
