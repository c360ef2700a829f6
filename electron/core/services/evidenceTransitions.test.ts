import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { loadVisibleRevision } from '../store/evidenceRows';
import { applyTransition } from './evidenceTransitions';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('applyTransition', () => {
  it('refuses to move evidence outside the transaction of the change it belongs to', async () => {
    const { revisionId } = await tc.call('evidence:ingest', ingestRequest('ev-a'));
    const ctx = tc.session.context();
    const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'test');
    expect(() => applyTransition(ctx, row, { revisionId, to: 'VALIDATED', reason: 'r' }, 'test')).toThrow(
      `applyTransition(${revisionId}) must run inside the change's transaction`,
    );
    expect(ctx.db.prepare('SELECT state FROM evidence_revision WHERE revision_id = ?').pluck().get(revisionId)).toBe('CANDIDATE');
  });
});
