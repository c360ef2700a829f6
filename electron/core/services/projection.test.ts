import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { claimProjection } from './projection';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('claimProjection', () => {
  it('reads a claim that exists, and throws for one that does not instead of answering a default', async () => {
    await tc.call('claim:create', { claimId: 'cl-1', statement: 'the backup account was taken over', tenant: 'acme', classification: 'internal' });
    const { projection } = await tc.call('claim:get', { claimId: 'cl-1' });
    expect(claimProjection(tc.session.context(), 'cl-1').projection).toBe(projection);
    expect(() => claimProjection(tc.session.context(), 'cl-none')).toThrow('claimProjection: claim cl-none does not exist');
  });
});
