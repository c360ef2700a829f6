import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENIGN_SAMPLES, MALICIOUS_SAMPLES } from '../../../shared/domain/injection.corpus';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';

let tc: TestCase;
beforeAll(async () => {
  tc = await createTestCase();
});
afterAll(() => tc.cleanup());

describe('injection and tamper screening on ingest', () => {
  it('has a corpus of at least 30 malicious samples and 30 benign look-alikes', () => {
    expect(MALICIOUS_SAMPLES.length).toBeGreaterThanOrEqual(30);
    expect(BENIGN_SAMPLES.length).toBeGreaterThanOrEqual(30);
  });

  it('quarantines every malicious sample on ingest, with the matched reason recorded', async () => {
    const missed: string[] = [];
    for (const [i, sample] of MALICIOUS_SAMPLES.entries()) {
      const out = await tc.call('evidence:ingest', ingestRequest(`ev-mal-${i}`, { content: sample.text, kind: 'threat_intel' }));
      if (out.state !== 'QUARANTINED') missed.push(sample.id);
      else {
        const detail = await tc.call('evidence:get', { revisionId: out.revisionId });
        expect(detail.transitions[0]).toMatchObject({ from: null, to: 'QUARANTINED' });
        expect(detail.transitions[0]!.reason).toMatch(/^quarantined on ingest: /);
        // Stored and returned verbatim, as data.
        expect(detail.content).toBe(sample.text);
      }
    }
    expect(missed, `not quarantined: ${missed.join(', ')}`).toEqual([]);
  });

  it('quarantines none of the benign look-alikes', async () => {
    const flagged: string[] = [];
    for (const [i, sample] of BENIGN_SAMPLES.entries()) {
      const out = await tc.call('evidence:ingest', ingestRequest(`ev-ben-${i}`, { content: sample.text, kind: 'log_record' }));
      if (out.state !== 'CANDIDATE') flagged.push(`${sample.id}: ${out.screening.matches.map((m) => m.reason).join('; ')}`);
    }
    expect(flagged, flagged.join('\n')).toEqual([]);
  });

  it('quarantines a revision whose declared hash does not match its content', async () => {
    const out = await tc.call('evidence:ingest', { ...ingestRequest('ev-hash'), declaredSha256: 'a'.repeat(64) });
    expect(out.state).toBe('QUARANTINED');
    expect(out.screening.matches.map((m) => m.patternId)).toContain('hash-mismatch');
  });

  it('accepts a revision whose declared hash matches', async () => {
    const content = 'sigma rule matched for svc-backup';
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(content).digest('hex');
    const out = await tc.call('evidence:ingest', { ...ingestRequest('ev-hash-ok', { content }), declaredSha256: sha });
    expect(out.state).toBe('CANDIDATE');
    expect((await tc.call('evidence:get', { revisionId: out.revisionId })).contentSha256).toBe(sha);
  });
});
