import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'ana', displayName: 'Ana', role: 'analyst', tenants: ['acme'], maxClassification: 'internal' });
});
afterEach(() => tc.cleanup());

const request = (claimId?: string, classification: 'internal' | 'restricted' = 'internal') => ({
  ...(claimId ? { claimId } : {}),
  statement: 'Phishing was the initial access vector',
  tenant: 'acme',
  classification,
});

describe('claim:create', () => {
  it('names a claim created without an id cl- and eight hex digits', async () => {
    const ids = [(await tc.call('claim:create', request())).claimId, (await tc.call('claim:create', request())).claimId];
    for (const id of ids) expect(id).toMatch(/^cl-[0-9a-f]{8}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('refuses a statement SQLite would store as empty (it begins with a NUL) as bad input naming the rule, and writes nothing', async () => {
    const before = await tc.call('audit:head', {});
    const refusal = await tc.refusal('claim:create', { ...request('cl-nul'), statement: '\u0000\\' });
    expect(refusal.code).toBe('VALIDATION');
    expect(refusal.message).toContain('length(statement) > 0');
    expect(refusal.message).toContain('nothing was written');
    expect(await tc.call('audit:head', {})).toEqual(before);
    expect(await tc.call('claim:page', { text: 'cl-nul', limit: 5 })).toMatchObject({ items: [] });
    // A NUL further in is text like any other, stored exactly.
    expect((await tc.call('claim:create', { ...request('cl-nul-inside'), statement: 'a\u0000b' })).statement).toBe('a\u0000b');
  });

  it('refuses an id that is taken, and a claim above the author\'s clearance, saying which', async () => {
    await tc.call('claim:create', request('cl-1'));
    expect(await tc.raw('claim:create', request('cl-1'))).toEqual({ ok: false, error: { code: 'CONFLICT', message: 'claim:create: claim cl-1 already exists' } });
    tc.as('ana');
    expect(await tc.raw('claim:create', request('cl-2', 'restricted'))).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'claim:create: your clearance does not cover tenant acme at restricted' },
    });
  });
});
