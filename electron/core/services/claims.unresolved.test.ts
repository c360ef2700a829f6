import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stateFingerprint } from '../audit/receipts';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'rita', displayName: 'Rita', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal' });
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'ana', displayName: 'Ana', role: 'analyst', tenants: ['acme'], maxClassification: 'restricted' });
  await tc.call('claim:create', { claimId: 'cl-phish', statement: 'Phishing was the initial access vector', tenant: 'acme', classification: 'internal' });
  await tc.call('claim:create', { claimId: 'cl-hidden', statement: 'restricted claim', tenant: 'acme', classification: 'restricted' });
});
afterEach(() => tc.cleanup());

const newReceipts = async (after: number) => (await tc.call('audit:list', { limit: 10 })).items.filter((r) => r.seq > after);
const headSeq = async () => (await tc.call('audit:list', { limit: 1 })).items[0]!.seq;

describe('claim:markUnresolved / claim:clearUnresolved', () => {
  it('lets a reviewer mark a claim UNRESOLVED with a reason and clear it again, one receipt each', async () => {
    tc.as('rita');
    const head = await headSeq();
    const marked = await tc.call('claim:markUnresolved', { claimId: 'cl-phish', reason: 'mail logs for Nov 18-19 were purged; cannot be decided' });
    expect(marked).toMatchObject({ status: 'UNRESOLVED', unresolvedReason: 'mail logs for Nov 18-19 were purged; cannot be decided' });
    expect((await newReceipts(head)).map((r) => [r.action, r.targets])).toEqual([['claim:markUnresolved', ['claim:cl-phish']]]);

    const mid = await headSeq();
    const cleared = await tc.call('claim:clearUnresolved', { claimId: 'cl-phish', reason: 'archived logs restored' });
    expect(cleared).toMatchObject({ status: 'INSUFFICIENT', unresolvedReason: null });
    const [receipt] = await newReceipts(mid);
    expect(receipt).toMatchObject({ action: 'claim:clearUnresolved', body: { reason: 'archived logs restored', clearedReason: 'mail logs for Nov 18-19 were purged; cannot be decided' } });
    // The receipt fingerprints the mark on both sides of the change.
    expect(receipt).toMatchObject({
      preStateFp: stateFingerprint({ claimId: 'cl-phish', generation: 1, unresolvedReason: 'mail logs for Nov 18-19 were purged; cannot be decided' }),
      postStateFp: stateFingerprint({ claimId: 'cl-phish', generation: 1, unresolvedReason: null }),
    });
  });

  it('refuses analysts, double marks, clearing an unmarked claim and hidden claims; each writes nothing', async () => {
    const before = tableDigest(tc.casePath);
    tc.as('ana');
    expect(await tc.raw('claim:markUnresolved', { claimId: 'cl-phish', reason: 'x' })).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'claim:markUnresolved: only a reviewer or admin may change whether a claim is UNRESOLVED; ana is an analyst' },
    });
    tc.as('rita');
    expect(await tc.raw('claim:clearUnresolved', { claimId: 'cl-phish', reason: 'x' })).toEqual({
      ok: false,
      error: { code: 'CONFLICT', message: 'claim:clearUnresolved: cl-phish is not marked UNRESOLVED; nothing to clear' },
    });
    expect(await tc.raw('claim:markUnresolved', { claimId: 'cl-hidden', reason: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'claim:markUnresolved: no claim cl-hidden is visible to you' },
    });
    expect(await tc.raw('claim:markUnresolved', { claimId: 'cl-phish', reason: '  ' })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(tableDigest(tc.casePath)).toBe(before);
    await tc.call('claim:markUnresolved', { claimId: 'cl-phish', reason: 'first' });
    const marked = tableDigest(tc.casePath);
    expect(await tc.raw('claim:markUnresolved', { claimId: 'cl-phish', reason: 'second' })).toEqual({
      ok: false,
      error: { code: 'CONFLICT', message: 'claim:markUnresolved: cl-phish is already UNRESOLVED (first); clear it first to record a new reason' },
    });
    expect(tableDigest(tc.casePath)).toBe(marked);
  });
});

describe('claim:get', () => {
  it('answers a hidden claim exactly as one that does not exist', async () => {
    tc.as('rita');
    for (const claimId of ['cl-hidden', 'cl-nowhere']) {
      expect(await tc.raw('claim:get', { claimId })).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: `claim:get: no claim ${claimId} is visible to you` } });
    }
  });
});
