import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Channel, RequestOf } from '../../../shared/ipc/contract';
import { verifyCaseFile } from './verifyFile';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { TEST_PASSPHRASE, testSession } from '../../testing/testCase';

/**
 * Issue 9.5: keys were filed by case id, which copies and backups share, so a rekey in a copy
 * overwrote the key the original still registered and locked that reviewer out of it for good.
 */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

/** A workbench session with this machine's keys, not yet on any case. */
function session() {
  const session = testSession({ userDataDir: join(rc.dir, 'user') }).seat();
  const call = async <C extends Channel>(channel: C, request: RequestOf<C>) => {
    const env = await dispatch(handlers, session, channel, request);
    if (!env.ok) throw new Error(`${channel}: ${env.error.code} ${env.error.message}`);
    return env.value;
  };
  return { session, call };
}

describe('reviewer keys and copies of a case', () => {
  it('a rekey in a copy leaves the original usable by that reviewer, and both verify', async () => {
    rc.session.close();
    const copy = join(rc.dir, 'copy.case.sqlite');
    copyFileSync(rc.casePath, copy);

    const b = session();
    await b.call('case:open', { path: copy });
    await b.call('actor:unlock', { actorId: 'admin', passphrase: TEST_PASSPHRASE });
    await b.call('actor:rekey', { passphrase: TEST_PASSPHRASE, actorId: 'bob', reason: 'laptop replaced' });
    await b.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    await b.call('claim:create', { claimId: 'cl-in-copy', statement: 'signed with the new key', tenant: 'acme', classification: 'internal' });
    b.session.close();

    const a = session();
    await a.call('case:open', { path: rc.casePath });
    await a.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    await a.call('claim:create', { claimId: 'cl-in-original', statement: 'signed with the key this file registers', tenant: 'acme', classification: 'internal' });
    a.session.close();

    // And back in the copy, after the original was used again.
    const b2 = session();
    await b2.call('case:open', { path: copy });
    await b2.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    await b2.call('claim:create', { claimId: 'cl-in-copy-2', statement: 'still the new key', tenant: 'acme', classification: 'internal' });
    b2.session.close();

    // And the original once more, after the copy loaded its new key from disk.
    const a2 = session();
    await a2.call('case:open', { path: rc.casePath });
    await a2.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    await a2.call('claim:create', { claimId: 'cl-in-original-2', statement: 'the old key was kept', tenant: 'acme', classification: 'internal' });
    a2.session.close();

    expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
    expect((await verifyCaseFile(copy)).exitCode).toBe(0);
  });
});
