import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { verifyCaseFile } from './verifyFile';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createReviewCase } from '../../testing/reviewCase';
import { buildRealisticCase, openAsAttacker } from '../../testing/tamper';

/**
 * Issue 9.1, the evidence columns: the ingest receipt did not record the validity context, so a
 * direct edit of a revision's classification (which lets a reviewer without clearance read it),
 * tenant, trust tier, independence group, times, kind or author went unnoticed by verify. The
 * receipt now records the whole revision as stored, and verify holds every column to it.
 */
let base: { path: string; cleanup: () => void };
beforeAll(async () => {
  base = await buildRealisticCase();
}, 60_000);
afterAll(() => base.cleanup());

const EDITS: [what: string, sql: string, expected: string][] = [
  ['classification lowered', `UPDATE evidence_revision SET classification = 'public' WHERE classification <> 'public'`, 'evidence validity context: validity context (classification)'],
  ['tenant moved', `UPDATE evidence_revision SET tenant = 'globex'`, 'evidence validity context: validity context (tenant)'],
  ['trust tier raised', `UPDATE evidence_revision SET trust_tier = 'authoritative' WHERE trust_tier <> 'authoritative'`, 'evidence validity context: validity context (trustTier)'],
  ['independence group cleared', `UPDATE evidence_revision SET independence_group = 'forged-group'`, 'evidence validity context: validity context (independenceGroup)'],
  ['observed_at moved', `UPDATE evidence_revision SET observed_at = '2020-01-01T00:00:00Z'`, 'evidence validity context: validity context (observedAt)'],
  ['valid_until extended', `UPDATE evidence_revision SET valid_until = '2099-01-01T00:00:00Z'`, 'evidence validity context: validity context (validUntil)'],
  ['kind upgraded', `UPDATE evidence_revision SET kind = 'forensic_artifact' WHERE kind <> 'forensic_artifact'`, 'evidence validity context: lineage, revision number, kind, media type, title or author'],
  ['author rewritten', `UPDATE evidence_revision SET created_by = 'carol' WHERE created_by <> 'carol'`, 'lineage, revision number, kind, media type, title or author'],
  // Content: the digest, or the text it digests.
  ['a stored content digest replaced', `UPDATE evidence_revision SET content_sha256 = '${'0'.repeat(64)}' WHERE revision_id = (SELECT MIN(revision_id) FROM evidence_revision)`, 'evidence content: stored content_sha256 of'],
  ['content edited', `UPDATE evidence_revision SET content = content || ' (edited)' WHERE revision_id = (SELECT MIN(revision_id) FROM evidence_revision)`, 'no longer hashes to the digest this receipt recorded'],
  // Reviewer keys: who can sign.
  ['an active key marked retired', `UPDATE actor_key SET retired_at = '2026-11-21T00:00:00.000Z' WHERE actor_id = 'carol'`, 'of carol is marked retired, but no later receipt replaced it'],
  ['a key row deleted', `DELETE FROM actor_key WHERE actor_id = 'carol'`, 'key registration: actor_key lacks '],
  [
    'a retired key row added that no receipt registered',
    `INSERT INTO actor_key (key_id, actor_id, algorithm, public_key, registered_at, retired_at) SELECT 'ed25519:' || substr(key_id, 9, 8) || 'forged', actor_id, algorithm, public_key, registered_at, registered_at FROM actor_key WHERE actor_id = 'carol'`,
    'of carol was registered by no receipt',
  ],
  ['a public key swapped for another reviewer\'s', `UPDATE actor_key SET public_key = (SELECT public_key FROM actor_key WHERE actor_id = 'admin' AND retired_at IS NULL) WHERE actor_id = 'carol'`, 'differs from the key this receipt registered'],
  ['a retired key handed to another reviewer', `UPDATE actor_key SET actor_id = 'carol' WHERE actor_id = 'dave' AND retired_at IS NOT NULL`, 'differs from the key this receipt registered'],
  ['a key\'s algorithm changed', `UPDATE actor_key SET algorithm = 'x25519' WHERE actor_id = 'carol'`, 'differs from the key this receipt registered'],
  // The lifecycle history: a transition row deleted, reworded or added behind the receipts' back.
  ['a transition row deleted', `DELETE FROM evidence_transition WHERE transition_id = (SELECT MAX(transition_id) FROM evidence_transition)`, 'missing or altered'],
  ['a first state reworded', `UPDATE evidence_transition SET reason = 'nothing to see' WHERE from_state IS NULL AND revision_id = (SELECT MIN(revision_id) FROM evidence_revision)`, 'evidence transition rows: the first lifecycle state of'],
  ['a transition reason reworded', `UPDATE evidence_transition SET reason = 'nothing to see' WHERE to_state = 'DISPUTED'`, 'evidence transition rows: the transition of'],
  [
    'a transition row added',
    `INSERT INTO evidence_transition (revision_id, from_state, to_state, reason, actor, at) SELECT revision_id, 'VALIDATED', 'REVOKED', 'quietly', 'bob', '2026-11-21T00:00:00Z' FROM evidence_revision LIMIT 1`,
    'evidence state: ',
  ],
  // Every receipted row still there, no row more, but the first one moved last: the history no longer ends in the state.
  [
    'the transition rows reordered',
    `UPDATE evidence_transition SET transition_id = (SELECT MAX(transition_id) + 1 FROM evidence_transition)
     WHERE transition_id = (SELECT MIN(transition_id) FROM evidence_transition WHERE revision_id = (SELECT revision_id FROM evidence_revision WHERE state_version >= 1 ORDER BY revision_id LIMIT 1))`,
    'evidence state: the last lifecycle transition of',
  ],
  // Bindings, claims and reviewer profiles, each named by its check.
  ['a binding row deleted', `DELETE FROM claim_binding WHERE binding_id = (SELECT MIN(binding_id) FROM claim_binding)`, 'claim binding: binding of '],
  ['a binding rationale reworded', `UPDATE claim_binding SET rationale = 'because' WHERE binding_id = (SELECT MIN(binding_id) FROM claim_binding)`, '(rationale or author) differs from what this receipt recorded'],
  ['a claim statement reworded', `UPDATE claim SET statement = 'something else' WHERE claim_id = (SELECT MIN(claim_id) FROM claim)`, 'claim content: claim '],
  ['a claim row deleted', `DELETE FROM claim WHERE claim_id = 'cl-last'`, 'claim content: claim cl-last is missing'],
  ['a reviewer clearance changed', `UPDATE actor SET max_classification = CASE max_classification WHEN 'public' THEN 'restricted' ELSE 'public' END WHERE actor_id = 'carol'`, 'reviewer profile: profile of carol (role, clearance or name) differs from the state this receipt recorded'],
  ['the first admin renamed', `UPDATE actor SET display_name = 'Someone Else' WHERE actor_id = 'admin'`, 'reviewer profile: profile of admin (role, clearance or name) differs from the admin this case was created with'],
  // Issue 9.7: the home scope decides which chosen ids are kept bare; widening it would let a
  // name taken out of sight answer "already exists" again, and a stray key is a fact no receipt wrote.
  ['the home scope widened', `UPDATE case_meta SET value = '{"tenants":["*"],"maxClassification":"restricted"}' WHERE key = 'home_scope'`, 'case identity: case identity differs'],
  ['a case_meta key added', `INSERT INTO case_meta (key, value) VALUES ('home_scope_override', 'x')`, 'case_meta holds "home_scope_override"'],
];

describe('verify holds every evidence column to its ingest receipt', () => {
  it.each(EDITS)('%s is caught and named', async (_what, sql, expected) => {
    const path = `${base.path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(base.path, path);
    const db = openAsAttacker(path);
    const changed = db.prepare(sql).run().changes;
    db.close();
    expect(changed).toBeGreaterThan(0);
    const result = await verifyCaseFile(path);
    expect(result.exitCode).toBe(1);
    expect(result.verification?.firstBroken).toMatchObject({ kind: 'state' });
    expect(result.summary).toContain(expected);
  });

  it('counts the rows a revision has against the states its receipts account for', async () => {
    const path = `${base.path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(base.path, path);
    const db = openAsAttacker(path);
    const target = db.prepare('SELECT revision_id, state, state_version FROM evidence_revision ORDER BY revision_id LIMIT 1').get() as { revision_id: string; state: string; state_version: number };
    db.prepare(`INSERT INTO evidence_transition (revision_id, from_state, to_state, reason, actor, at) VALUES (?, ?, ?, 'quietly', 'bob', '2026-11-21T00:00:00Z')`).run(
      target.revision_id,
      target.state,
      target.state,
    );
    db.close();
    const states = target.state_version + 1;
    expect((await verifyCaseFile(path)).summary).toContain(`${target.revision_id} has ${states + 1} lifecycle transition rows for ${states} receipted states`);
  });

  it('a replaced key made active again, the new one retired, is caught by the receipt that retired it', async () => {
    const path = `${base.path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(base.path, path);
    const db = openAsAttacker(path);
    const old = db.prepare(`SELECT key_id FROM actor_key WHERE actor_id = 'dave' AND retired_at IS NOT NULL`).pluck().get() as string;
    db.prepare(`UPDATE actor_key SET retired_at = '2026-11-21T00:00:00.000Z' WHERE actor_id = 'dave' AND retired_at IS NULL`).run();
    db.prepare('UPDATE actor_key SET retired_at = NULL WHERE key_id = ?').run(old);
    db.close();
    const result = await verifyCaseFile(path);
    expect(result.verification?.firstBroken?.reason).toBe(`key registration: key ${old}, retired by this receipt, is not marked retired`);
  });

  it('a revision row deleted is named as missing by the check of its ingest', async () => {
    const path = `${base.path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(base.path, path);
    const db = openAsAttacker(path);
    const gone = db.prepare('SELECT MIN(revision_id) FROM evidence_revision').pluck().get() as string;
    db.prepare('DELETE FROM evidence_revision WHERE revision_id = ?').run(gone);
    db.close();
    expect((await verifyCaseFile(path)).verification?.firstBroken?.reason).toBe(`evidence validity context: ${gone} is missing`);
  });

  it('the untouched case verifies', async () => {
    expect((await verifyCaseFile(base.path)).exitCode).toBe(0);
  });
});

describe('verify holds a revise to its receipt: the new revision untouched since, the old one superseded', () => {
  let revised: { path: string; cleanup: () => void };
  beforeAll(async () => {
    const rc = await createReviewCase();
    const old = await rc.evidence('ev-old');
    rc.as('admin');
    await rc.call('evidence:revise', { supersedes: old, content: 'the corrected record', reason: 'corrected upstream' });
    // And one only ingested: its ingest receipt is the last word on its state.
    await rc.call('evidence:ingest', ingestRequest('ev-fresh'));
    rc.session.close();
    revised = { path: rc.casePath, cleanup: () => rc.cleanup() };
  }, 60_000);
  afterAll(() => revised.cleanup());

  it.each([
    ['a lifecycle move counted on the revised revision that no receipt made', `UPDATE evidence_revision SET state_version = 1 WHERE state_version = 0 AND supersedes IS NOT NULL`, 'records 1 lifecycle moves that no receipt made'],
    ['a lifecycle move counted on an ingested revision that no receipt made', `UPDATE evidence_revision SET state_version = 1 WHERE evidence_id = 'ev-fresh'`, 'evidence state: ev-fresh@1 records 1 lifecycle moves that no receipt made'],
    ['the superseded revision made VALIDATED again', `UPDATE evidence_revision SET state = 'VALIDATED' WHERE state = 'SUPERSEDED'`, 'differs from the supersede this receipt recorded'],
    ['the supersede row re-pointed at another revision', `UPDATE evidence_transition SET supporting_ref = 'rev-elsewhere' WHERE to_state = 'SUPERSEDED'`, 'the supersede of'],
  ])('%s is caught and named', async (_what, sql, expected) => {
    const path = `${revised.path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(revised.path, path);
    const db = openAsAttacker(path);
    expect(db.prepare(sql).run().changes).toBe(1);
    db.close();
    const result = await verifyCaseFile(path);
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain(expected);
    expect(result.verification?.firstBroken?.reason).toMatch(/^evidence (state|transition rows): /);
  });

  it('the untouched case verifies', async () => {
    expect((await verifyCaseFile(revised.path)).exitCode).toBe(0);
  });
});

describe('verify names rows that no receipt accounts for (issue 9.1, actors and remediations)', () => {
  let path: string;
  let cleanup: () => void;
  beforeAll(async () => {
    const rc = await createReviewCase();
    const ev = await rc.evidence('ev-r');
    await rc.claim('cl-r');
    await rc.bind('cl-r', ev);
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId: 'cl-r', verdict: 'SUPPORTED', rationale: 'shown' });
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    rc.as('dave');
    await rc.call('evidence:transition', { revisionId: ev, to: 'REVOKED', reason: 'feed fabricated' });
    await rc.call('revocation:runWorker', { maxJobs: 10 });
    expect((await rc.call('remediation:list', { status: 'OPEN' })).items).toHaveLength(1);
    rc.session.close();
    path = rc.casePath;
    cleanup = () => rc.cleanup();
  }, 60_000);
  afterAll(() => cleanup());

  const tampered = async (sql: string) => {
    const copy = `${path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(path, copy);
    const db = openAsAttacker(copy);
    expect(db.prepare(sql).run().changes).toBe(1);
    db.close();
    return verifyCaseFile(copy);
  };

  it('the untouched case verifies', async () => {
    expect((await verifyCaseFile(path)).exitCode).toBe(0);
  });

  it('an open remediation deleted (its gate blocker with it) is caught', async () => {
    const result = await tampered(`DELETE FROM remediation`);
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain('remediations opened by job');
  });

  it('a remediation resolved behind the receipts is caught', async () => {
    const result = await tampered(`UPDATE remediation SET status = 'RESOLVED', resolution = 'WITHDRAWN', resolved_by = 'carol', resolved_at = '2026-11-21T00:00:00Z', resolution_reason = 'x'`);
    expect(result.exitCode).toBe(1);
  });

  it('a support projection set from BLOCKED to ELIGIBLE is caught', async () => {
    const result = await tampered(`UPDATE support_projection SET projection = 'ELIGIBLE' WHERE projection <> 'ELIGIBLE'`);
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain('support projections: the support projection of claim cl-r is ELIGIBLE');
  });

  it('a reviewer profile inserted without a receipt is caught', async () => {
    const result = await tampered(
      `INSERT INTO actor (actor_id, display_name, role, tenants, max_classification, created_at) VALUES ('mallory', 'Mallory', 'admin', '["*"]', 'restricted', '2026-11-21T00:00:00Z')`,
    );
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain('actor:mallory exists but no receipt names it');
  });
});
