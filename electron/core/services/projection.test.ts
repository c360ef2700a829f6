import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { claimProjection } from './projection';

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

describe('claimProjection', () => {
  it('reads a claim that exists, and throws for one that does not instead of answering a default', async () => {
    await rc.claim('cl-1');
    const { projection } = await rc.call('claim:get', { claimId: 'cl-1' });
    expect(claimProjection(rc.session.context(), 'cl-1').projection).toBe(projection);
    expect(() => claimProjection(rc.session.context(), 'cl-none')).toThrow('claimProjection: claim cl-none does not exist');
  });

  it('names in its reasons only the revisions the reader may see', async () => {
    const open = await rc.evidence('ev-open');
    const secret = await rc.evidence('ev-secret', { classification: 'restricted' });
    await rc.claim('cl-1');
    await rc.bind('cl-1', open);
    await rc.bind('cl-1', secret);
    rc.as('dave');
    await rc.call('evidence:transition', { revisionId: secret, to: 'REVOKED', reason: 'forged' });
    await rc.call('revocation:runWorker', { maxJobs: 10 });
    const cleared = (await rc.call('claim:get', { claimId: 'cl-1' })).projectionReasons ?? [];
    expect(cleared.join('\n')).toContain(secret);
    rc.as('faye');
    const reasons = (await rc.call('claim:get', { claimId: 'cl-1' })).projectionReasons ?? [];
    expect(reasons).toEqual(cleared.map((r) => r.replaceAll(secret, 'a revision outside your clearance')));
  });
});
