import { describe, expect, it } from 'vitest';
import { VOTER_KILL_REASONS } from './reviewQueue';

describe('review queue', () => {
  it('never lets a reviewer name TOO_FEW_VALID_VOTES: that is the quorum’s own finding', () => {
    expect(VOTER_KILL_REASONS).not.toContain('TOO_FEW_VALID_VOTES');
    expect(VOTER_KILL_REASONS).toContain('QUOTE_NOT_IN_SOURCE');
  });
});
