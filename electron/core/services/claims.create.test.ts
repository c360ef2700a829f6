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
