import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { CAST, steppingClock } from '../../testing/reviewCase';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { timelineQueries } from './timeline';

/**
 * timeline:list (issue 11.4): evidence by observed time, lifecycle changes and decisions by their
 * own time, in one order, a page at a time, within the reader's clearance.
 */
let tc: TestCase;
let SECRET = '';
// Observed times deliberately out of ingest order; two share an instant.
const OBSERVED: Record<string, string> = { a: '2026-11-20T03:10:00Z', b: '2026-11-20T03:05:00Z', c: '2026-11-20T03:10:00Z', d: '2026-11-20T02:00:00Z' };

beforeAll(async () => {
  tc = await createTestCase({ now: steppingClock('2026-11-20T08:00:00.000Z') });
  for (const actor of CAST) await tc.call('actor:create', actor);
  tc.as('alice');
  for (const [id, observedAt] of Object.entries(OBSERVED)) {
    await tc.call('evidence:ingest', ingestRequest(id, { kind: id === 'd' ? 'analyst_note' : 'telemetry', context: { observedAt, effectiveFrom: observedAt, sourceType: id === 'd' ? 'analyst' : 'edr' } }));
  }
  SECRET = (await tc.call('evidence:ingest', ingestRequest('secret', { context: { classification: 'restricted', observedAt: '2026-11-20T03:07:00Z' } }))).revisionId;
  tc.as('bob');
  for (const id of ['a@1', 'b@1', SECRET]) await tc.call('evidence:transition', { revisionId: id, to: 'VALIDATED', reason: 'checked' });
  tc.as('alice');
  await tc.call('claim:create', { claimId: 'cl-1', statement: 'svc-backup ran rclone', tenant: 'acme', classification: 'internal' });
  for (const id of ['a@1', SECRET]) await tc.call('claim:bind', { claimId: 'cl-1', revisionId: id, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
  const proposal = await tc.call('decision:propose', { claimId: 'cl-1', verdict: 'SUPPORTED', rationale: 'EDR shows it' });
  tc.as('bob');
  await tc.call('decision:approve', { decisionId: proposal.decisionId, fingerprint: proposal.fingerprint });
});
afterAll(() => tc.cleanup());

const list = (request: RequestOf<'timeline:list'>, as = 'alice') => {
  tc.as(as);
  return tc.call('timeline:list', request);
};
const label = (e: ResponseOf<'timeline:list'>['events'][number]) => `${e.type}:${e.revisionId ?? e.claimId}`;

describe('timeline:list', () => {
  it('lists evidence by observed time, then lifecycle changes and decisions at their own times, in one order', async () => {
    const { events, nextCursor } = await list({});
    expect(nextCursor).toBeNull();
    expect(events.map(label)).toEqual([
      'observed:d@1',
      'observed:b@1',
      `observed:${SECRET}`,
      'observed:a@1',
      'observed:c@1',
      'lifecycle:a@1',
      'lifecycle:b@1',
      `lifecycle:${SECRET}`,
      'proposed:cl-1',
      'decided:cl-1',
    ]);
    const order = events.map((e) => `${e.at}|${e.key}`);
    expect(order).toEqual([...order].sort());
    expect(events.find((e) => e.type === 'lifecycle')).toMatchObject({ state: 'VALIDATED', actor: 'bob', detail: 'CANDIDATE → VALIDATED: checked' });
    expect(events.find((e) => e.type === 'decided')).toMatchObject({ claimId: 'cl-1', title: 'svc-backup ran rclone', actor: 'bob' });
    expect(events.find((e) => e.type === 'decided')!.detail).toMatch(/^APPROVED SUPPORTED/);
  });

  it('pages through the same events, whatever the page size, ties at one instant included', async () => {
    const whole = (await list({})).events;
    for (const limit of [1, 2, 3, 7]) {
      const paged: typeof whole = [];
      let after: string | undefined;
      for (let i = 0; i < 20; i++) {
        const page = await list({ limit, ...(after ? { after } : {}) });
        paged.push(...page.events);
        if (!page.nextCursor) break;
        after = page.nextCursor;
      }
      expect(paged, `limit ${limit}`).toEqual(whole);
    }
  });

  it('filters by claim (its bound evidence and decisions), kind and source type, and by time', async () => {
    expect((await list({ claimId: 'cl-1' })).events.map(label)).toEqual(['observed:' + SECRET, 'observed:a@1', 'lifecycle:a@1', `lifecycle:${SECRET}`, 'proposed:cl-1', 'decided:cl-1']);
    expect((await list({ kind: 'analyst_note' })).events.map(label)).toEqual(['observed:d@1']);
    expect((await list({ sourceType: 'edr' })).events.map(label)).not.toContain('observed:d@1');
    expect((await list({ sourceType: 'edr' })).events.filter((e) => e.type === 'proposed' || e.type === 'decided')).toEqual([]);
    expect((await list({ from: '2026-11-20T03:06:00Z', to: '2026-11-20T03:10:00Z' })).events.map(label)).toEqual([`observed:${SECRET}`]);
  });

  it('never shows what the reader may not see; a hidden claim answers like a missing one; a foreign cursor is refused', async () => {
    const hers = (await list({}, 'faye')).events.map(label);
    expect(hers).not.toContain(`observed:${SECRET}`);
    expect(hers).not.toContain(`lifecycle:${SECRET}`);
    expect(hers).toContain('decided:cl-1');
    tc.as('alice');
    await tc.call('claim:create', { claimId: 'cl-secret', statement: 'restricted', tenant: 'acme', classification: 'restricted' });
    tc.as('faye');
    const hidden = await tc.refusal('timeline:list', { claimId: 'cl-secret' });
    const missing = await tc.refusal('timeline:list', { claimId: 'cl-nothing' });
    expect(hidden.code).toBe('NOT_FOUND');
    expect(hidden.message.replace('cl-secret', 'X')).toBe(missing.message.replace('cl-nothing', 'X'));
    const bad = await tc.refusal('timeline:list', { after: 'no-bar' });
    expect([bad.code, bad.message]).toEqual(['VALIDATION', expect.stringContaining('after: not a cursor')]);
  });

  it('reads each stream in time order from its own index, never by sorting a whole table', () => {
    const db = tc.session.db();
    const actor = tc.session.actor();
    for (const cursor of [null, { at: '2026-11-20T03:00:00Z', key: 'o:x' }]) {
      for (const q of timelineQueries(actor, { limit: 200 }, cursor)) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail).join(' | ');
        expect(plan, q.sql).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        expect(plan, q.sql).not.toMatch(/_by_acl/);
      }
    }
  });
});
