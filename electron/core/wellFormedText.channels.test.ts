import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyCaseFile } from './audit/verifyFile';
import { ingestRequest } from '../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../testing/testCase';
import { tableDigest } from './store/digest';

/**
 * Issue 9.2: a lone UTF-16 surrogate was stored by SQLite as U+FFFD while the receipt kept the
 * original, so from then on every verify failed and finalizing was blocked for good. The contract
 * now refuses such text with VALIDATION naming the field, and writes nothing.
 */
let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('text that is not well-formed Unicode', () => {
  it.each([
    ['claim:create', { claimId: 'cl-x', statement: 'svc-backup \uD800 was taken over', tenant: 'acme', classification: 'internal' }, ['statement']],
    ['evidence:ingest', ingestRequest('ev-x', { content: 'EDR event \uDC00 on FS01' }), ['content']],
    ['evidence:ingest', ingestRequest('ev-y', { context: { producer: 'edr\uD83D' } }), ['context', 'producer']],
    ['source:add', { title: 'report', content: 'body \uDBFF', tenant: 'acme', classification: 'internal' }, ['content']],
  ] as const)('%s is refused with the field named, and nothing is written', async (channel, request, path) => {
    const before = tableDigest(tc.casePath);
    const answer = await tc.raw(channel, request);
    expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path, message: expect.stringContaining('lone UTF-16 surrogate') }] } });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('well-formed text with emoji and invisible characters goes through, and the case still verifies', async () => {
    await tc.call('claim:create', { claimId: 'cl-ok', statement: 'exfil 🙂 via zero\u200Bwidth', tenant: 'acme', classification: 'internal' });
    await tc.call('evidence:ingest', ingestRequest('ev-ok', { content: 'note with 𝄞 and \u2060 joiner' }));
    expect((await verifyCaseFile(tc.casePath)).exitCode).toBe(0);
  });
});
