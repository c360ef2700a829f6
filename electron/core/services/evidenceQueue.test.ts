import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_STATES, type EvidenceKind } from '../../../shared/domain/enums';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import type { EvidenceSort, QueueRevision } from '../../../shared/ipc/channels/evidence';
import type { RequestOf } from '../../../shared/ipc/contract';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';

/**
 * The evidence queue (issue 11.5): evidence:list filters, sorts and counts in SQL, and pages with
 * a cursor of the order asked for, so a view never holds the whole case; evidence:validateMany
 * validates a selection, each item receipted, all or nothing.
 */
let tc: TestCase;
const KINDS: EvidenceKind[] = ['telemetry', 'log_record', 'threat_intel'];
let all: QueueRevision[];

beforeAll(async () => {
  tc = await createTestCase();
  for (let i = 0; i < 37; i++) {
    const req = ingestRequest(`ev-q${String(i).padStart(2, '0')}`, {
      kind: KINDS[i % KINDS.length],
      // Some without an observed time (NULL sorts apart), and ties on the same instant.
      context: { observedAt: i % 6 === 0 ? null : `2026-11-${String(10 + (i % 9)).padStart(2, '0')}T03:00:00Z`, producer: i % 5 === 0 ? 'edr_100%' : 'defender' },
    });
    await tc.call('evidence:ingest', { ...req, title: i % 4 === 0 ? `lateral movement ${i}` : `signin ${i}` });
  }
  for (let i = 1; i < 37; i += 3) await tc.call('evidence:transition', { revisionId: `ev-q${String(i).padStart(2, '0')}@1`, to: 'VALIDATED', reason: 'checked' });
  await tc.call('evidence:transition', { revisionId: 'ev-q01@1', to: 'DISPUTED', reason: 'contradicted' });
  all = (await tc.call('evidence:list', { limit: 200 })).items;
});
afterAll(() => tc.cleanup());

async function pages(req: Omit<RequestOf<'evidence:list'>, 'after' | 'limit'>, limit = 4): Promise<RevisionSummary[]> {
  const out: RevisionSummary[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await tc.call('evidence:list', { ...req, limit, ...(after !== undefined ? { after } : {}) });
    out.push(...page.items);
    if (page.nextCursor === null) return out;
    after = page.nextCursor;
  }
}

const byId = (a: RevisionSummary, b: RevisionSummary) => (a.revisionId < b.revisionId ? -1 : a.revisionId > b.revisionId ? 1 : 0);
/** The order each sort promises, written out in JS over the whole list. */
const EXPECTED: Record<EvidenceSort, (a: RevisionSummary, b: RevisionSummary) => number> = {
  revision: byId,
  'observed-asc': (a, b) => (a.observedAt === b.observedAt ? byId(a, b) : a.observedAt === null ? -1 : b.observedAt === null ? 1 : a.observedAt < b.observedAt ? -1 : 1),
  'observed-desc': (a, b) => (a.observedAt === b.observedAt ? -byId(a, b) : a.observedAt === null ? 1 : b.observedAt === null ? -1 : a.observedAt < b.observedAt ? 1 : -1),
  state: (a, b) => (a.state === b.state ? byId(a, b) : a.state < b.state ? -1 : 1),
};

describe('evidence:list as a queue', () => {
  it('fills the case as the test expects (ties and missing observed times included)', () => {
    expect(all).toHaveLength(37);
    expect(all.filter((r) => r.observedAt === null).length).toBeGreaterThan(3);
    expect(new Set(all.map((r) => r.state))).toEqual(new Set(['CANDIDATE', 'VALIDATED', 'DISPUTED']));
  });

  it.each(['revision', 'observed-asc', 'observed-desc', 'state'] as const)('pages in %s order: every row once, in that order', async (sort) => {
    const paged = await pages({ sort });
    expect(paged.map((r) => r.revisionId)).toEqual([...all].sort(EXPECTED[sort]).map((r) => r.revisionId));
  });

  it('filters by state, kind and text together, and pages the result in order', async () => {
    const paged = await pages({ state: 'CANDIDATE', kind: 'telemetry', text: 'LATERAL', sort: 'observed-desc' }, 2);
    const expected = all.filter((r) => r.state === 'CANDIDATE' && r.kind === 'telemetry' && r.title.toLowerCase().includes('lateral')).sort(EXPECTED['observed-desc']);
    expect(expected.length).toBeGreaterThan(0);
    expect(paged.map((r) => r.revisionId)).toEqual(expected.map((r) => r.revisionId));
  });

  it('matches % and _ in the text literally, and matches revision ids and producers', async () => {
    expect((await pages({ text: '100%' })).map((r) => r.revisionId)).toEqual(all.filter((r) => r.producer === 'edr_100%').map((r) => r.revisionId));
    expect(await pages({ text: '_' })).toHaveLength(all.filter((r) => r.producer.includes('_')).length);
    expect(await pages({ text: '%' })).toHaveLength(all.filter((r) => r.producer.includes('%')).length);
    expect((await pages({ text: 'ev-q07@' })).map((r) => r.revisionId)).toEqual(['ev-q07@1']);
  });

  it('finds by words exactly what a scan of every field finds, whatever their case, quotes or wildcards', async () => {
    const words = ['LATERAL', 'movement 1', 'Signin 3', 'ev-q1', 'q0', 'edr_100%', 'DEFENDER', 'ent 2', 'x"y', 'ÉV-Q', 'not anywhere'];
    for (const word of words) {
      const needle = word.toLowerCase();
      const expected = all.filter((r) => [r.revisionId, r.title, r.sourceType, r.producer].some((f) => f.toLowerCase().includes(needle)));
      expect((await pages({ text: word }, 7)).map((r) => r.revisionId), word).toEqual(expected.map((r) => r.revisionId));
      const { counts } = await tc.call('evidence:list', { text: word, limit: 1, counts: true });
      expect(counts!.total, word).toBe(expected.length);
    }
  });

  it('words of three characters and more are read from the label index, which follows state moves and agrees per state', async () => {
    const perState = (rows: readonly RevisionSummary[]) => Object.fromEntries(LIFECYCLE_STATES.map((state) => [state, rows.filter((r) => r.state === state).length]));
    const matching = (word: string, rows: readonly RevisionSummary[]) => rows.filter((r) => [r.revisionId, r.title, r.sourceType, r.producer].some((f) => f.toLowerCase().includes(word)));
    const word = 'signin 1';
    const before = matching(word, all);
    expect(before.length).toBeGreaterThan(3);
    expect((await tc.call('evidence:list', { text: 'SIGNIN 1', limit: 1, counts: true })).counts!.byState).toEqual(perState(before));
    // A matching candidate moves: the counts per state move with it, in the same transaction.
    const moved = before.find((r) => r.state === 'CANDIDATE')!;
    await tc.call('evidence:transition', { revisionId: moved.revisionId, to: 'QUARANTINED', reason: 'the sensor was tampered with' });
    const now = (await tc.call('evidence:list', { limit: 200 })).items;
    expect((await tc.call('evidence:list', { text: word, limit: 1, counts: true })).counts!.byState).toEqual(perState(matching(word, now)));
    expect((await pages({ text: word, state: 'QUARANTINED' })).map((r) => r.revisionId)).toContain(moved.revisionId);
    // Short words (under a trigram) and words across two fields are matched as before, by the fields themselves.
    expect((await pages({ text: 'q1' })).map((r) => r.revisionId)).toEqual(matching('q1', now).map((r) => r.revisionId));
    expect(await pages({ text: '1\u001fsign' })).toEqual([]);
  });

  it('counts the matches in all and per state, the state filter aside', async () => {
    const { counts } = await tc.call('evidence:list', { kind: 'log_record', state: 'VALIDATED', counts: true, limit: 1 });
    const ofKind = all.filter((r) => r.kind === 'log_record');
    expect(counts!.total).toBe(ofKind.filter((r) => r.state === 'VALIDATED').length);
    for (const state of LIFECYCLE_STATES) expect(counts!.byState[state], state).toBe(ofKind.filter((r) => r.state === state).length);
    expect((await tc.call('evidence:list', { limit: 1 })).counts).toBeUndefined();
    expect((await tc.call('evidence:list', { text: 'signin', counts: true, limit: 1 })).counts!.total).toBe(all.filter((r) => r.title.includes('signin')).length);
  });

  it('gives each row the move that put it in its current state (one read per page, no detail per row)', async () => {
    const byId = new Map(all.map((r) => [r.revisionId, r]));
    expect(byId.get('ev-q01@1')!.entered).toMatchObject({ from: 'VALIDATED', to: 'DISPUTED', reason: 'contradicted', actor: 'admin' });
    expect(byId.get('ev-q04@1')!.entered).toMatchObject({ to: 'VALIDATED', reason: 'checked' });
    for (const r of all) expect(r.entered?.to, r.revisionId).toBe(r.state);
  });

  it('refuses a cursor of another order, naming the field', async () => {
    const { nextCursor } = await tc.call('evidence:list', { sort: 'observed-asc', limit: 2 });
    const wrong = await tc.refusal('evidence:list', { sort: 'state', after: 'ev-q01@1', limit: 2 });
    expect(wrong).toMatchObject({ code: 'VALIDATION', issues: [{ path: ['after'] }] });
    expect(wrong.message).toContain('not a cursor of the state order');
    expect((await tc.refusal('evidence:list', { sort: 'revision', after: nextCursor!, limit: 2 })).message).toContain('not a cursor of the revision order');
    expect((await tc.refusal('evidence:list', { sort: 'observed-asc', after: '["x"]', limit: 2 })).code).toBe('VALIDATION');
  });
});

describe('evidence:validateMany', () => {
  it('validates every item with its own checklist run and receipt', async () => {
    const picked = all.filter((r) => r.state === 'CANDIDATE' && r.observedAt !== null).slice(0, 3);
    const before = (await tc.call('audit:list', { limit: 1 })).items[0]!.seq;
    const result = await tc.call('evidence:validateMany', { items: picked.map((r) => ({ revisionId: r.revisionId, from: r.state })), reason: 'bulk: hashes and sources checked' });
    expect(result.validated).toEqual(picked.map((r) => ({ revisionId: r.revisionId, from: 'CANDIDATE' })));
    for (const r of picked) {
      const detail = await tc.call('evidence:get', { revisionId: r.revisionId });
      expect(detail.state).toBe('VALIDATED');
      expect(detail.validation?.passed).toBe(true);
    }
    const receipts = (await tc.call('audit:list', { limit: 10 })).items.filter((r) => r.seq > before);
    expect(receipts.map((r) => [r.action, r.body.revisionId, r.body.to]).reverse()).toEqual(picked.map((r) => ['evidence:transition', r.revisionId, 'VALIDATED']));
    expect((await tc.call('audit:verify', { full: true })).ok).toBe(true);
  });

  it('an item that moved since it was listed refuses the whole selection, naming it', async () => {
    const [a, b] = (await tc.call('evidence:list', { state: 'CANDIDATE', sort: 'observed-desc', limit: 2 })).items;
    await tc.call('evidence:transition', { revisionId: b!.revisionId, to: 'QUARANTINED', reason: 'moved by another reviewer' });
    const refused = await tc.refusal('evidence:validateMany', { items: [a!, b!].map((r) => ({ revisionId: r.revisionId, from: r.state })), reason: 'bulk' });
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toContain(`${b!.revisionId} is QUARANTINED now, not CANDIDATE`);
    expect((await tc.call('evidence:get', { revisionId: a!.revisionId })).state).toBe('CANDIDATE');
  });

  it('a failed checklist refuses the selection with the item and check; nothing is written', async () => {
    const bad = await tc.call('evidence:ingest', { ...ingestRequest('ev-untimed'), context: { ...ingestRequest('ev-untimed').context, observedAt: null } });
    const [good] = (await tc.call('evidence:list', { state: 'CANDIDATE', sort: 'observed-desc', limit: 1 })).items;
    const head = (await tc.call('audit:list', { limit: 1 })).items[0]!.seq;
    const refused = await tc.refusal('evidence:validateMany', { items: [{ revisionId: good!.revisionId, from: 'CANDIDATE' }, { revisionId: bad.revisionId, from: bad.state }], reason: 'bulk' });
    expect(refused.code).toBe('VALIDATION');
    // The item's own refusal, without evidence:transition's prefix, inside the selection's.
    expect(refused.message).toBe(
      `evidence:validateMany: item 2 (${bad.revisionId}): ${bad.revisionId} failed the validation checklist: timestamp_valid (observed_at is missing); correct the evidence with evidence:revise, or as a reviewer override with overrideReason; nothing was validated (an override is given one revision at a time, from its detail)`,
    );
    expect(refused.issues![0]!.path.slice(0, 2)).toEqual(['items', 1]);
    expect((await tc.call('evidence:get', { revisionId: good!.revisionId })).state).toBe('CANDIDATE');
    expect((await tc.call('audit:list', { limit: 1 })).items[0]!.seq).toBe(head);
  });

  it('refuses a revision that does not exist (or is outside the clearance) by the name of the bulk action', async () => {
    expect(await tc.refusal('evidence:validateMany', { items: [{ revisionId: 'ev-none@1', from: 'CANDIDATE' }], reason: 'bulk' })).toEqual({
      code: 'NOT_FOUND',
      message: 'evidence:validateMany: no evidence revision ev-none@1 is visible to you',
    });
  });

  it('refuses a revision listed twice', async () => {
    const [a] = (await tc.call('evidence:list', { state: 'CANDIDATE', limit: 1 })).items;
    const item = { revisionId: a!.revisionId, from: a!.state };
    // The field is named, as for any bad input, so the form can mark the selection.
    expect(await tc.refusal('evidence:validateMany', { items: [item, item], reason: 'bulk' })).toEqual({
      code: 'VALIDATION',
      message: `evidence:validateMany: ${item.revisionId} is listed twice`,
      issues: [{ path: ['items'], message: 'each revision once' }],
    });
  });
});
