import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_FILTER_IDS, type ClaimReviewSummary } from '../../../shared/ipc/channels/review';
import type { Channel, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { reviewFilterCounts, reviewQueueView, reviewUrgency } from '../../../shared/ipc/reviewQueue';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session, type Seat } from '../session';

/**
 * review:page (issue 11.1): the Review view reads its queue a page at a time, ordered and
 * filtered in the store by the queue's one rule (shared/ipc/reviewQueue.ts), and the pages agree
 * with the whole queue (review:list) for every reader, filter and page size.
 */
const SEED = resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json');
const PASSPHRASES: Record<string, string> = { 'lena.k': 'demo-lena-2231', 'omar.h': 'demo-omar-2231', 'priya.s': 'demo-priya-2231', 'jonas.w': 'demo-jonas-2231' };
let dir: string;
let seat: Seat;
const raw = (channel: string, request: unknown) => dispatch(handlers, seat, channel, request);
async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const answer = await raw(channel, request);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code}: ${answer.error.message}`);
  return answer.value as ResponseOf<C>;
}
const as = (actorId: string) => seat.unlock(actorId, PASSPHRASES[actorId]!);
const ids = (items: readonly ClaimReviewSummary[]) => items.map((i) => i.claimId);

async function pages(filter: RequestOf<'review:page'>['filter'], limit: number): Promise<ClaimReviewSummary[]> {
  const out: ClaimReviewSummary[] = [];
  let after: string | undefined;
  for (let n = 0; n < 100; n++) {
    const page = await call('review:page', { filter, limit, ...(after !== undefined ? { after } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    expect(page.counts).toBeUndefined();
    out.push(...page.items);
    if (page.nextCursor === null) return out;
    after = page.nextCursor;
  }
  throw new Error('review:page never ended');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-review-page-'));
  const path = await ensureDemoCase(SEED, dir);
  seat = new Session({ userDataDir: dir, log: () => {} }).seat();
  seat.open(path);
  as('lena.k');
});
afterAll(() => {
  seat.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('review:page', () => {
  it('pages through the whole queue in its order, for every filter, page size and reader, with each filter’s count', async () => {
    for (const actor of ['lena.k', 'omar.h', 'jonas.w']) {
      as(actor);
      const whole = (await call('review:list', {})).items;
      expect(whole.length, actor).toBeGreaterThan(0);
      expect((await call('review:page', { counts: true })).counts, actor).toEqual(reviewFilterCounts(whole));
      for (const filter of REVIEW_FILTER_IDS) {
        for (const limit of [1, 2, 200]) expect(ids(await pages(filter, limit)), `${actor} ${filter} ${limit}`).toEqual(ids(reviewQueueView(whole, filter)));
      }
    }
    // Ordered, not in creation order: claims whose evidence was revoked first, decided or not; UNRESOLVED last.
    as('lena.k');
    const all = await pages('all', 200);
    expect(ids(all.slice(0, 2)).sort()).toEqual(['cl-persistence', 'cl-rdp']);
    expect(all[all.length - 1]!.decisionState).toBe('UNRESOLVED');
  });

  it('a claim whose review moved after its page was read does not shift the pages after it', async () => {
    as('lena.k');
    const before = await pages('all', 200);
    const first = await call('review:page', { limit: 3 });
    const moved = first.items[2]!;
    expect(moved.decisionState).toBe('UNDECIDED');
    // The page's last claim is marked unresolved: it moves towards the end of the queue, and the
    // next page still starts where the last one ended (a cursor by position would skip what it jumped over).
    await call('claim:markUnresolved', { claimId: moved.claimId, reason: 'the two logs cannot be reconciled' });
    const rest = await pages('all', 200);
    expect(ids(rest).indexOf(moved.claimId)).toBeGreaterThan(ids(before).indexOf(moved.claimId));
    const next = await call('review:page', { limit: 200, after: first.nextCursor! });
    const after = ids(before).slice(3);
    expect(after.length).toBeGreaterThan(2);
    // Nothing after the place is skipped; the moved claim comes again at its new place.
    expect(ids(next.items)).toEqual(ids(rest).filter((id) => after.includes(id) || id === moved.claimId));
  });

  it('refuses a cursor that is no place in the reader’s queue, naming `after`', async () => {
    for (const after of ['cl-not-a-claim', '3.cl-not-a-claim', 'x.cl-takeover', '']) {
      expect(await raw('review:page', { after }), after).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['after'] }] } });
    }
    expect(await raw('review:page', { filter: 'nobody' })).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['filter'] }] } });
    // A real place with anything before it is not a cursor either.
    const place = (await call('review:page', { limit: 1 })).nextCursor!;
    expect(await raw('review:page', { after: `x${place}` })).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION',
        message: 'review:page: after is not a place in your review queue; pass back the nextCursor of the page before',
        issues: [{ path: ['after'], message: 'expected the nextCursor of the page before' }],
      },
    });
  });

  it('ends at the end of the queue, and a place before every shown claim starts at the first', async () => {
    as('lena.k');
    const whole = (await call('review:list', {})).items;
    const all = reviewQueueView(whole, 'all');
    // A page that reaches the last claim has no next page; the last claim's place has nothing after it.
    const exact = await call('review:page', { limit: all.length });
    expect(ids(exact.items)).toEqual(ids(all));
    expect(exact.nextCursor).toBeNull();
    const butLast = await call('review:page', { limit: all.length - 1 });
    expect(butLast.nextCursor).not.toBeNull();
    const tail = await call('review:page', { limit: 200, after: butLast.nextCursor! });
    expect(ids(tail.items)).toEqual([all[all.length - 1]!.claimId]);
    expect(tail.nextCursor).toBeNull();
    const lastPlace = `${reviewUrgency(all[all.length - 1]!)}.${all[all.length - 1]!.claimId}`;
    expect(await call('review:page', { limit: 200, after: lastPlace })).toEqual({ items: [], nextCursor: null });
    // The first claim of the whole queue is not settled, so it comes before every settled claim:
    // its place read under the settled filter starts that filter's queue at its first claim.
    const settled = reviewQueueView(whole, 'settled');
    expect(settled.length).toBeGreaterThan(1);
    expect(ids(settled)).not.toContain(all[0]!.claimId);
    const firstPlace = `${reviewUrgency(all[0]!)}.${all[0]!.claimId}`;
    expect(ids((await call('review:page', { filter: 'settled', limit: 200, after: firstPlace })).items)).toEqual(ids(settled));
  });

  it('the graph’s claims carry where their review stands, as the queue says', async () => {
    as('lena.k');
    const whole = new Map((await call('review:list', {})).items.map((i) => [i.claimId, i]));
    const g = await call('graph:neighbourhood', { focus: { kind: 'case' }, limit: 1000 });
    expect(g.reviews.map((r) => r.claimId).sort()).toEqual(g.claims.map((c) => c.claimId).sort());
    for (const r of g.reviews) {
      const q = whole.get(r.claimId)!;
      expect(r).toEqual({ claimId: q.claimId, decisionState: q.decisionState, verdict: q.verdict, quorumTier: q.quorumTier });
    }
  });
});
