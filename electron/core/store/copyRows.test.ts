import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CROWDED_BUCKET, MAX_COPY_CANDIDATES, copyCandidates, probableCopiesAmong } from './copyRows';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';


const REPORT =
  'The LANTERN backdoor talks to its command server over HTTPS on port 8443. It collects the host name, the logged-on user and ' +
  'the running processes before the first beacon. Operators upload and download files, start a reverse shell and remove the implant. ' +
  'Persistence is a scheduled task named UpdateCheck that runs every thirty minutes.';

describe('copy candidates through ingest', () => {
  let tc: TestCase;
  beforeEach(async () => {
    tc = await createTestCase();
  });
  afterEach(() => tc.cleanup());

  // Signature ids past 9 are several digits: each bucket's hits come back as one list of ids.
  it('finds the original among a dozen other signatures, by its whole id', async () => {
    for (let i = 1; i <= 12; i += 1) {
      const filler = Array.from({ length: 30 }, (_, j) => `w${i}x${j}`).join(' ');
      await tc.call('evidence:ingest', ingestRequest(`ev-filler-${i}`, { kind: 'vendor_report', content: `Note ${i}: ${filler}.` }));
    }
    const original = await tc.call('evidence:ingest', ingestRequest('ev-original', { kind: 'vendor_report', content: REPORT }));
    const repost = await tc.call('evidence:ingest', ingestRequest('ev-repost', { kind: 'threat_intel', content: `Subject: FWD: LANTERN\n\n${REPORT}` }));
    const sigIds = tc.session.db().prepare('SELECT sig_id FROM copy_signature WHERE revision_id = ?').pluck();
    expect(sigIds.get(original.revisionId)).toBeGreaterThan(9);
    expect(repost.copies).toEqual([{ copyOf: original.revisionId, reason: expect.any(String) as unknown }]);
    // What independence counting collapses: links with both ends among the revisions asked about.
    const db = tc.session.db();
    expect(probableCopiesAmong(db, [original.revisionId, repost.revisionId])).toEqual(
      new Map([[repost.revisionId, [{ ref: original.revisionId, why: repost.copies[0]!.reason }]]]),
    );
    const filler = db.prepare(`SELECT revision_id FROM evidence_revision WHERE evidence_id = 'ev-filler-1'`).pluck().get() as string;
    expect(probableCopiesAmong(db, [repost.revisionId, filler]).size).toBe(0);
  });
});

describe('copy candidates by shared buckets', () => {
  let tc: TestCase;
  /** Revision ids in signature order (each ingest stores one signature). */
  let revisions: string[];
  beforeAll(async () => {
    tc = await createTestCase();
    // Named out of order (37 is prime to 70): signature order and revision order disagree, either way round.
    for (let i = 0; i < 70; i += 1) await tc.call('evidence:ingest', ingestRequest(`ev-${String((i * 37) % 70).padStart(2, '0')}`, { kind: 'vendor_report', content: `note ${i}` }));
    revisions = tc.session.db().prepare('SELECT revision_id FROM copy_signature ORDER BY sig_id').pluck().all() as string[];
  }, 60_000);
  afterAll(() => tc.cleanup());

  /** Puts each listed revision (by index) in the bucket, and nothing else in any bucket. */
  const bands = (buckets: Record<number, number[]>) => {
    const db = tc.session.db();
    db.prepare('DELETE FROM copy_band').run();
    const insert = db.prepare('INSERT INTO copy_band (bucket, sig_id) SELECT ?, sig_id FROM copy_signature WHERE revision_id = ?');
    for (const [bucket, members] of Object.entries(buckets)) for (const i of members) insert.run(Number(bucket), revisions[i]);
  };
  /** Indexes into `revisions`, in revision id order. */
  const byRevision = (indexes: number[]) => [...indexes].sort((x, y) => (revisions[x]! < revisions[y]! ? -1 : 1));
  const candidates = (buckets: number[]) =>
    copyCandidates(tc.session.db(), { buckets, evidenceId: 'ev-new', tenant: 'acme', classifications: ['public', 'internal', 'confidential', 'restricted'] }).map(
      (c) => [revisions.indexOf(c.revision_id), c.shared],
    );

  it('most shared buckets first, ties in revision order', () => {
    bands({ 1: [1, 2, 3], 2: [1, 3], 3: [1], 4: [5], 5: [4] });
    expect(candidates([1, 2, 3, 4, 5, 6])).toEqual([[1, 3], [3, 2], ...byRevision([2, 4, 5]).map((i) => [i, 1])]);
    expect(candidates([6])).toEqual([]);
  });

  it(`a bucket of more than ${CROWDED_BUCKET} signatures is boilerplate and skipped; one of exactly ${CROWDED_BUCKET} is read`, () => {
    const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    bands({ 10: range(0, CROWDED_BUCKET + 1), 11: range(0, CROWDED_BUCKET) });
    expect(candidates([10])).toEqual([]);
    expect(candidates([11])).toHaveLength(CROWDED_BUCKET);
  });

  it(`at most ${MAX_COPY_CANDIDATES}: the most shared, then the newest signatures`, () => {
    const alone = Object.fromEntries(Array.from({ length: 69 }, (_, i) => [100 + i, [i + 1]]));
    bands({ ...alone, 200: [0], 201: [0] });
    const found = candidates([...Object.keys(alone).map(Number), 200, 201]);
    expect(found).toHaveLength(MAX_COPY_CANDIDATES);
    expect(found[0]).toEqual([0, 2]);
    // The other 63 places go to the newest signatures sharing one bucket (7 to 69), in revision order.
    expect(found.slice(1).map(([i]) => i)).toEqual(byRevision(Array.from({ length: 63 }, (_, i) => 7 + i)));
  });
});
