import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { CORE_STATE_CHECKS } from './coreStateChecks';
import { verifyCaseFile } from './verifyFile';
import { createReviewCase } from '../../testing/reviewCase';
import { openAsAttacker, receiptFacts, tamperedCopy } from '../../testing/tamper';

/**
 * What each core state check says, where the tamper suites (contextTamper, tamper) reach it only
 * through another check that speaks first: the message is what an analyst reads to find the edit.
 */
let base: { path: string; cleanup: () => void; validated: string; revised: string };
beforeAll(async () => {
  const rc = await createReviewCase();
  const validated = await rc.evidence('ev-moved');
  const old = await rc.evidence('ev-old');
  rc.as('admin');
  const { revisionId: revised } = await rc.call('evidence:revise', { supersedes: old, content: 'the corrected record', reason: 'corrected upstream' });
  // A decision left at each of its receipts: proposed, approved, rejected, withdrawn.
  const cited = await rc.evidence('ev-cited');
  for (const [claimId, then] of [['cl-proposed', null], ['cl-approved', 'approve'], ['cl-rejected', 'reject'], ['cl-withdrawn', 'withdraw']] as const) {
    await rc.claim(claimId);
    await rc.bind(claimId, cited);
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId, verdict: 'SUPPORTED', rationale: 'the log shows it' });
    if (then === 'withdraw') await rc.call('decision:withdraw', { decisionId: d.decisionId, reason: 'wrong verdict' });
    rc.as('carol');
    if (then === 'approve') await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    if (then === 'reject') await rc.call('decision:reject', { decisionId: d.decisionId, reason: 'does not cover the proxy log' });
  }
  await rc.claim('cl-quorum', { quorumSize: 2 });
  await rc.bind('cl-quorum', cited);
  rc.as('dave');
  const { basis } = await rc.call('review:get', { claimId: 'cl-quorum' });
  await rc.call('review:vote', { claimId: 'cl-quorum', basis, refuted: false, checklist: COMPLETE, reason: 'quote matches the log' });
  rc.session.close();
  base = { path: rc.casePath, cleanup: () => rc.cleanup(), validated, revised };
}, 60_000);

const COMPLETE = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
afterAll(() => base.cleanup());

const tampered = (edit: (db: Database.Database) => void): string => tamperedCopy(base.path, edit);

const check = (name: string) => {
  const found = CORE_STATE_CHECKS.find((c) => c.name === name);
  if (!found) throw new Error(`no state check named ${name}`);
  return found;
};

describe('core state checks say what was edited', () => {
  it('the untouched case verifies', async () => {
    expect((await verifyCaseFile(base.path)).exitCode).toBe(0);
  });

  it('two validity-context columns edited together are both named', async () => {
    const path = tampered((db) => db.prepare(`UPDATE evidence_revision SET classification = 'restricted', tenant = 'globex' WHERE revision_id = ?`).run(base.validated));
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(
      `evidence validity context: validity context (classification, tenant) of ${base.validated} differs from what this receipt recorded`,
    );
  });

  it('the content of a revision made by a revise is held to the revise receipt', async () => {
    const path = tampered((db) => db.prepare(`UPDATE evidence_revision SET content = content || ' (edited)' WHERE revision_id = ?`).run(base.revised));
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(
      `evidence content: content of ${base.revised} no longer hashes to the digest this receipt recorded`,
    );
  });

  it('a state moved behind its last transition receipt is named with the revision', async () => {
    const path = tampered((db) => db.prepare(`UPDATE evidence_revision SET state = 'DISPUTED' WHERE revision_id = ?`).run(base.validated));
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(
      `evidence state: lifecycle state of ${base.validated} differs from the state this receipt recorded (and no later receipt records a change to it)`,
    );
  });

  it('a reviewer deleted is named as missing', async () => {
    const path = tampered((db) => db.prepare(`DELETE FROM actor WHERE actor_id = 'carol'`).run());
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(
      'reviewer profile: reviewer carol is missing (and no later receipt records a change to it)',
    );
  });

  it.each(['cl-proposed', 'cl-approved', 'cl-rejected', 'cl-withdrawn'])('the decision on %s edited behind its last receipt is named', async (claimId) => {
    let id = '';
    const path = tampered((db) => {
      id = db.prepare('SELECT decision_id FROM decision WHERE claim_id = ?').pluck().get(claimId) as string;
      db.prepare(`UPDATE decision SET rationale = 'edited afterwards' WHERE decision_id = ?`).run(id);
    });
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(
      `decision: decision ${id} differs from the state this receipt recorded (and no later receipt records a change to it)`,
    );
  });

  it('a decision deleted is named as missing', async () => {
    let id = '';
    const path = tampered((db) => {
      id = db.prepare(`SELECT decision_id FROM decision WHERE claim_id = 'cl-proposed'`).pluck().get() as string;
      db.prepare('DELETE FROM decision WHERE decision_id = ?').run(id);
    });
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(`decision: decision ${id} is missing (and no later receipt records a change to it)`);
  });

  it('a quorum vote turned, or deleted, is named', async () => {
    let id = 0;
    const turned = tampered((db) => {
      id = db.prepare('SELECT vote_id FROM review_vote').pluck().get() as number;
      db.prepare('UPDATE review_vote SET refuted = 1').run();
    });
    expect((await verifyCaseFile(turned)).verification?.firstBroken?.reason).toBe(`review vote: vote ${id} differs from the state this receipt recorded`);
    const deleted = tampered((db) => db.prepare('DELETE FROM review_vote').run());
    expect((await verifyCaseFile(deleted)).verification?.firstBroken?.reason).toBe(`review vote: vote ${id} is missing`);
  });

  // Through verify, the validity-context check of the same ingest names a deleted revision first;
  // the content and state checks speak for receipts older than the recorded context (schema 330).
  it('the content and state checks name a deleted revision as missing on their own', () => {
    const db = openAsAttacker(tampered((d) => d.prepare('DELETE FROM evidence_revision WHERE revision_id = ?').run(base.validated)));
    try {
      const target = `revision:${base.validated}`;
      const ingest = receiptFacts(db, 'evidence:ingest', target);
      expect(check('evidence content').check(db, ingest, target)).toBe(`${target} is missing`);
      const moved = receiptFacts(db, 'evidence:transition', target);
      expect(check('evidence state').check(db, moved, target)).toBe(`${target} is missing`);
    } finally {
      db.close();
    }
  });
});
