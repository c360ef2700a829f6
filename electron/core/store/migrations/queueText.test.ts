import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../../testing/testCase';
import { m0460_queue_text } from './0460-queue-text';

/**
 * Migration 0460 (the queue's trigram index of words): a case file written before it gets every
 * revision it already holds indexed when it is opened, and revisions written after it are indexed
 * by the trigger, as the words filter of evidence:list needs (it reads only the index's candidates).
 */
let tc: TestCase;
const match = (words: string) =>
  tc.session.db().prepare(`SELECT revision_id FROM evidence_queue_fts WHERE evidence_queue_fts MATCH ? ORDER BY revision_id`).pluck().all(`"${words}"`);

beforeAll(async () => {
  tc = await createTestCase();
  for (const id of ['ev-mig-a', 'ev-mig-b']) await tc.call('evidence:ingest', { ...ingestRequest(id), title: `beacon from ${id}` });
});
afterAll(() => tc.cleanup());

describe('migration 0460', () => {
  it('indexes the revisions a file already holds, and those written after it', async () => {
    const db = tc.session.db();
    // The file as it was before the migration: no index, no trigger, no view.
    db.exec('DROP TRIGGER evidence_queue_text_insert; DROP TABLE evidence_queue_fts; DROP VIEW evidence_queue_doc;');
    db.transaction(() => m0460_queue_text.up(db))();
    expect(match('beacon from ev-mig')).toEqual(['ev-mig-a@1', 'ev-mig-b@1']);
    await tc.call('evidence:ingest', { ...ingestRequest('ev-mig-c'), title: 'beacon from ev-mig-c' });
    expect(match('beacon from ev-mig')).toEqual(['ev-mig-a@1', 'ev-mig-b@1', 'ev-mig-c@1']);
    expect((await tc.call('evidence:list', { text: 'BEACON FROM EV-MIG', limit: 10 })).items.map((r) => r.revisionId)).toEqual(['ev-mig-a@1', 'ev-mig-b@1', 'ev-mig-c@1']);
  });
});
