import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { CORE_STATE_CHECKS } from './coreStateChecks';
import { StateCollector, StoredReceiptFacts, type StateCheck } from './stateChecks';
import { verifyCaseFile } from './verifyFile';
import { MIGRATIONS } from '../store/migrations';
import { createReviewCase } from '../../testing/reviewCase';
import { openAsAttacker, receiptFacts, tamperedCopy } from '../../testing/tamper';

/**
 * How the state checks' answers become one break: the earliest, at the receipt it concerns, or
 * just past the chain for what no single receipt accounts for; a check that cannot run is a break
 * unless the file is older than the table it reads.
 */
let base: { path: string; cleanup: () => void; revision: string; receipts: number };
beforeAll(async () => {
  const rc = await createReviewCase();
  const revision = await rc.evidence('ev-a');
  await rc.claim('cl-q', { quorumSize: 2 });
  await rc.bind('cl-q', revision);
  rc.as('dave');
  const { basis } = await rc.call('review:get', { claimId: 'cl-q' });
  const checklist = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
  await rc.call('review:vote', { claimId: 'cl-q', basis, refuted: false, checklist, reason: 'quote matches the log' });
  const receipts = rc.receiptCount();
  rc.session.close();
  base = { path: rc.casePath, cleanup: () => rc.cleanup(), revision, receipts };
}, 60_000);
afterAll(() => base.cleanup());

const tampered = (edit: (db: Database.Database) => void): string => tamperedCopy(base.path, edit);
const firstBroken = async (path: string) => (await verifyCaseFile(path)).verification;
const CUT_OFF = 'it was changed without a receipt, or receipts were removed from the end of the chain';

describe('one break, the earliest', () => {
  it('the untouched case verifies', async () => {
    expect((await firstBroken(base.path))?.ok).toBe(true);
  });

  it('a row no receipt names breaks just past the chain, which itself verified to its end', async () => {
    const v = await firstBroken(
      tampered((db) =>
        db.prepare(`INSERT INTO actor (actor_id, display_name, role, tenants, max_classification, created_at) VALUES ('mallory', 'Mallory', 'admin', '["*"]', 'restricted', '2026-11-21T00:00:00Z')`).run(),
      ),
    );
    expect(v?.firstBroken).toEqual({ seq: base.receipts + 1, kind: 'state', reason: `actor:mallory exists but no receipt names it: ${CUT_OFF}` });
    expect(v?.length).toBe(base.receipts);
  });

  it('a whole-case check breaks just past the chain too, under its name', async () => {
    let key = '';
    const v = await firstBroken(
      tampered((db) => {
        key = db.prepare(`SELECT 'ed25519:' || substr(key_id, 9, 8) || 'forged' FROM actor_key WHERE actor_id = 'carol'`).pluck().get() as string;
        db.prepare(`INSERT INTO actor_key (key_id, actor_id, algorithm, public_key, registered_at, retired_at) SELECT ?, actor_id, algorithm, public_key, registered_at, registered_at FROM actor_key WHERE actor_id = 'carol'`).run(key);
      }),
    );
    expect(v?.firstBroken).toEqual({ seq: base.receipts + 1, kind: 'state', reason: `reviewer keys: key ${key} of carol was registered by no receipt: ${CUT_OFF}` });
  });

  it('an earlier receipt\'s state found after a later receipt\'s fact still wins', async () => {
    let moved = 0;
    const v = await firstBroken(
      tampered((db) => {
        moved = receiptFacts(db, 'evidence:transition', `revision:${base.revision}`).seq;
        // The vote's fact is checked as the chain streams by; the revision's state once it ended.
        db.prepare('UPDATE review_vote SET refuted = 1').run();
        db.prepare(`UPDATE evidence_revision SET state = 'DISPUTED' WHERE revision_id = ?`).run(base.revision);
      }),
    );
    expect(v?.firstBroken?.seq).toBe(moved);
    expect(v?.firstBroken?.reason).toMatch(/^evidence state: lifecycle state of /);
  });
});

describe('a check that cannot run', () => {
  it('on a file of the current schema, a table dropped is named by the first check that reads it', async () => {
    const v = await firstBroken(tampered((db) => db.exec('DROP TABLE review_vote')));
    expect(v?.firstBroken?.reason).toBe('review vote: could not be recomputed (no such table: review_vote)');
    expect(v?.firstBroken?.seq).toBeLessThanOrEqual(base.receipts);
  });

  it('on an older file, only a missing table is skipped: a column that no longer parses is a break', async () => {
    const older = MIGRATIONS[MIGRATIONS.length - 2]!.version;
    const path = tampered((db) => {
      db.prepare(`UPDATE actor SET tenants = 'not json' WHERE actor_id = 'carol'`).run();
      db.pragma(`user_version = ${older}`);
    });
    expect((await firstBroken(path))?.firstBroken?.reason).toMatch(/^reviewer profile: could not be recomputed \(.*JSON/);
  });
});

describe('receipts the checks cannot hold', () => {
  const probe = (scope: StateCheck['scope'], seen: string[]): StateCheck => ({
    name: `probe ${scope}`,
    actions: ['probe:act'],
    scope,
    check: (_db, _r, target) => {
      seen.push(`${scope}:${target}`);
      return null;
    },
  });

  it('a receipt that names no target: its facts are checked against an empty target, and no state is held to it', () => {
    const db = openAsAttacker(tampered(() => undefined));
    try {
      const seen: string[] = [];
      const collector = new StateCollector(db, [probe('each', seen), probe('latest', seen)]);
      collector.observe(new StoredReceiptFacts(1, '2026-11-20T08:00:00.000Z', true, 'probe:act', 'admin', [], '{}', null, {}), true);
      collector.finish(1, true);
      expect(seen).toEqual(['each:']);
    } finally {
      db.close();
    }
  });

  it('a receipt no check understands hides the older ones about its target: counted unchecked, never guessed', () => {
    const db = openAsAttacker(tampered(() => undefined));
    try {
      const target = `revision:${base.revision}`;
      const collector = new StateCollector(db, CORE_STATE_CHECKS);
      const moved = receiptFacts(db, 'evidence:transition', target);
      collector.observe(moved, true);
      // A later build's action about the same revision, recording a state this build cannot recompute.
      collector.observe(new StoredReceiptFacts(moved.seq + 1, moved.at, true, 'plugin:annotate', 'admin', [target], '{}', 'f'.repeat(64), {}), false);
      collector.finish(moved.seq + 1, true);
      // The transition's fact was checked as it streamed by; its state, hidden by the later receipt, was not.
      expect([collector.checked, collector.unchecked]).toEqual([1, 1]);
    } finally {
      db.close();
    }
  });
});
