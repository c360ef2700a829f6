import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

const REPORT =
  'The LANTERN backdoor talks to its command server over HTTPS on port 8443. It collects the host name, the logged-on user and ' +
  'the running processes before the first beacon. Operators upload and download files, start a reverse shell and remove the implant. ' +
  'Persistence is a scheduled task named UpdateCheck that runs every thirty minutes.';

describe('copy candidates', () => {
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
  });
});
