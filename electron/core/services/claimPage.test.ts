import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_STATUSES } from '../../../shared/domain/enums';
import type { ClaimSummary } from '../../../shared/domain/schemas';
import type { Channel, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session, type Seat } from '../session';

/**
 * claim:page (issue 11.1): the claim lists of the views read a page at a time, filtered in the
 * store, and agree with the whole list (claim:list) for every reader, filter and page size.
 */
const SEED = resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json');
const PASSPHRASES: Record<string, string> = { 'lena.k': 'demo-lena-2231', 'omar.h': 'demo-omar-2231' };
let dir: string;
let seat: Seat;
const raw = (channel: string, request: unknown) => dispatch(handlers, seat, channel, request);
async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const answer = await raw(channel, request);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code}: ${answer.error.message}`);
  return answer.value as ResponseOf<C>;
}
const as = (actorId: string) => seat.unlock(actorId, PASSPHRASES[actorId]!);

async function pages(req: Omit<RequestOf<'claim:page'>, 'after' | 'limit'>, limit: number): Promise<ClaimSummary[]> {
  const out: ClaimSummary[] = [];
  let after: string | undefined;
  for (let n = 0; n < 100; n++) {
    const page = await call('claim:page', { ...req, limit, ...(after !== undefined ? { after } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    out.push(...page.items);
    if (page.nextCursor === null) return out;
    after = page.nextCursor;
  }
  throw new Error('claim:page never ended');
}
const ids = (claims: readonly ClaimSummary[]) => claims.map((c) => c.claimId);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-claim-page-'));
  const path = await ensureDemoCase(SEED, dir);
  seat = new Session({ userDataDir: dir, log: () => {} }).seat();
  seat.open(path);
  as('lena.k');
});
afterAll(() => {
  seat.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('claim:page', () => {
  it('pages through the same claims as the whole list, in its order, for every page size and reader', async () => {
    for (const actor of ['lena.k', 'omar.h']) {
      as(actor);
      const whole = await call('claim:list', {});
      expect(whole.length, actor).toBeGreaterThan(0);
      for (const limit of [1, 2, 3, 50]) expect(ids(await pages({}, limit)), `${actor} by ${limit}`).toEqual(ids(whole));
    }
    as('lena.k');
  });

  it('filters by status in the store, every status alike', async () => {
    const whole = await call('claim:list', {});
    for (const status of CLAIM_STATUSES) {
      const wanted = whole.filter((c) => c.status === status);
      expect(wanted.length, status).toBeGreaterThan(0);
      expect(await pages({ status }, 1), status).toEqual(wanted);
    }
  });

  it('filters by words of the id or statement, in any case', async () => {
    const whole = await call('claim:list', {});
    const [one] = whole;
    const word = one!.statement.split(/\s+/).find((w) => w.length > 4)!;
    const expected = whole.filter((c) => c.statement.toLowerCase().includes(word.toLowerCase()) || c.claimId.toLowerCase().includes(word.toLowerCase()));
    expect(ids(await pages({ text: word.toUpperCase() }, 2))).toEqual(ids(expected));
    expect(ids(await pages({ text: one!.claimId }, 2))).toContain(one!.claimId);
    expect(await pages({ text: 'no claim says this' }, 5)).toEqual([]);
  });

  it('counts the matches in all and per status, the status filter aside', async () => {
    const whole = await call('claim:list', {});
    const { counts } = await call('claim:page', { status: 'MIXED', limit: 1, counts: true });
    expect(counts!.total).toBe(whole.length);
    for (const status of CLAIM_STATUSES) expect(counts!.byStatus[status], status).toBe(whole.filter((c) => c.status === status).length);
    expect((await call('claim:page', { limit: 1 })).counts).toBeUndefined();
  });

  it('lists the claims a revocation unsettled, and only those', async () => {
    const before = await call('claim:list', {});
    const unsettledBefore = before.filter((c) => c.projection !== 'ELIGIBLE');
    expect(ids(await pages({ unsettled: true }, 2))).toEqual(ids(unsettledBefore));
    const settled = before.find((c) => c.projection === 'ELIGIBLE' && c.bindings.length > 0)!;
    const { revisionId } = settled.bindings[0]!;
    const { state } = await call('evidence:get', { revisionId });
    await call('evidence:transition', { revisionId, to: 'REVOKED', reason: `test: revoked from ${state}` });
    const after = await pages({ unsettled: true }, 2);
    expect(ids(after)).toContain(settled.claimId);
    expect(after.every((c) => c.projection !== 'ELIGIBLE')).toBe(true);
    const now = await call('claim:list', {});
    expect(ids(after)).toEqual(ids(now.filter((c) => c.projection !== 'ELIGIBLE')));
    // One projection: what the revocation just touched.
    const pending = await pages({ projection: 'PENDING_REVALIDATION' }, 1);
    expect(ids(pending)).toContain(settled.claimId);
    expect(ids(pending)).toEqual(ids(now.filter((c) => c.projection === 'PENDING_REVALIDATION')));
    expect((await call('claim:page', { projection: 'PENDING_REVALIDATION', limit: 1, counts: true })).counts!.total).toBe(pending.length);
  });

  it('refuses a cursor that names no claim the reader may see, naming `after`', async () => {
    const answer = await raw('claim:page', { after: 'cl-not-a-claim' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['after'] }] } });
    expect(await raw('claim:page', { limit: 0 })).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['limit'] }] } });
  });
});
