import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchCallError } from '../../shared/ipc/envelope';

// The store talks to the host only through bridge.call; replace it with a scripted fake.
const call = vi.fn();
vi.mock('../bridge', () => ({ call: (...args: unknown[]) => call(...args) }));
const { useWorkbench } = await import('./store');

const FP = 'f'.repeat(64);
const review = (claimId: string, decisionState = 'PROPOSED') => ({
  claimId,
  statement: `statement of ${claimId}`,
  author: 'omar.h',
  generation: 1,
  basis: 'b'.repeat(64),
  evidenceRefs: [],
  hiddenEvidenceRefs: 0,
  decisionState,
  decisionMessage: '',
  effectiveDecision: null,
  openProposal: null,
  decisions: [],
  quorum: null,
});

type Answer = unknown | (() => never);
/** A host answering every channel refreshAll touches; `answers` overrides or refuses single channels. */
function host(listed: string[], answers: Record<string, Answer> = {}) {
  call.mockImplementation(async (channel: string, req: { claimId?: string }) => {
    if (channel in answers) {
      const a = answers[channel];
      return typeof a === 'function' ? (a as () => unknown)() : a;
    }
    switch (channel) {
      case 'review:get':
        // A claim not listed is one this reviewer may not see.
        if (!listed.includes(req.claimId!)) throw new WorkbenchCallError('review:get', { code: 'NOT_FOUND', message: `review:get: no claim ${req.claimId}` });
        return review(req.claimId!);
      case 'evidence:list':
        return { items: [], nextCursor: null };
      case 'claim:list':
        return [];
      case 'audit:verify':
        return { ok: true, length: 1, head: 'h', firstBroken: null };
      case 'audit:list':
      case 'audit:keys':
        return { items: [] };
      case 'audit:head':
        return { seq: 1, hash: 'h', head: 'erwb-head:1:h' };
      case 'case:gate':
        return { ready: false, blockers: [], total: 0, byKind: {}, head: 'h', lastFinalization: null, final: false };
      case 'case:info':
        // Unlocked: the store reads the rest of the case only once a reviewer acts in this window.
        return { actor: { actorId: 'lena.k' } };
      case 'actor:list':
        return [];
      case 'case:recent':
        return { cases: [] };
      default:
        throw new Error(`unexpected channel ${channel}`);
    }
  });
}
const refuse = (channel: string, code: 'CONFLICT' | 'FORBIDDEN' | 'VALIDATION', message: string) => () => {
  throw new WorkbenchCallError(channel, { code, message });
};
const calls = (channel: string) => call.mock.calls.filter(([c]) => c === channel);

beforeEach(() => {
  call.mockReset();
  useWorkbench.setState({ reviews: {}, reviewError: null, finalizeOutcome: null, headCheck: null });
});

describe('review slice', () => {
  it('approves with exactly the fingerprint on screen, and reloads the review, the chain and the gate', async () => {
    host(['cl-a'], { 'decision:approve': {} });
    await useWorkbench.getState().loadReview('cl-a');
    expect(await useWorkbench.getState().approveDecision('cl-a', { decisionId: 'dec-1', fingerprint: FP })).toBeNull();
    expect(calls('decision:approve')).toEqual([['decision:approve', { decisionId: 'dec-1', fingerprint: FP }]]);
    expect([calls('audit:verify').length, calls('case:gate').length]).toEqual([1, 1]);
    // The queue is the Review view's to read again (a page at a time): the slice never reads it whole.
    expect([calls('review:get').length, calls('review:list').length]).toEqual([2, 0]);
  });

  it('a stale approval comes back with the service’s code and words, and the review reloads to show STALE', async () => {
    const message = 'decision:approve: dec-1 is stale: revision ev-9@1 was bound; propose a new decision on the claim as it is now';
    host(['cl-a'], { 'decision:approve': refuse('decision:approve', 'CONFLICT', message), 'review:get': review('cl-a', 'STALE') });
    const refused = await useWorkbench.getState().approveDecision('cl-a', { decisionId: 'dec-1', fingerprint: FP });
    expect(refused).toEqual({ code: 'CONFLICT', message, issues: [] });
    expect(useWorkbench.getState().reviews['cl-a']?.decisionState).toBe('STALE');
    expect(calls('audit:verify')).toHaveLength(0);
  });

  it('a four-eyes refusal is returned as is and reloads nothing: nothing moved', async () => {
    const message = 'decision:approve: priya.s proposed dec-1 and cannot approve it (four eyes); another reviewer must approve it';
    host(['cl-a'], { 'decision:approve': refuse('decision:approve', 'FORBIDDEN', message) });
    expect(await useWorkbench.getState().approveDecision('cl-a', { decisionId: 'dec-1', fingerprint: FP })).toEqual({ code: 'FORBIDDEN', message, issues: [] });
    expect(call.mock.calls.map(([c]) => c)).toEqual(['decision:approve']);
  });

  it('a vote carries the basis fingerprint the reviewer looked at', async () => {
    host(['cl-q'], { 'review:vote': {} });
    const vote = { claimId: 'cl-q', basis: 'b'.repeat(64), refuted: false, checklist: {}, reason: 'checked', killReasons: [] };
    expect(await useWorkbench.getState().castVote(vote)).toBeNull();
    expect(calls('review:vote')).toEqual([['review:vote', vote]]);
    expect(useWorkbench.getState().reviews['cl-q']).toBeDefined();
  });

  it('after a switch of actor, reviews of claims the new actor may not see are dropped, the others refetched', async () => {
    host(['cl-a', 'cl-b']);
    await Promise.all([useWorkbench.getState().loadReview('cl-a'), useWorkbench.getState().loadReview('cl-b')]);
    host(['cl-a']);
    call.mockImplementationOnce(async () => review('cl-a', 'DECIDED'));
    await useWorkbench.getState().refreshReviews();
    expect(Object.keys(useWorkbench.getState().reviews)).toEqual(['cl-a']);
    expect(useWorkbench.getState().reviews['cl-a']?.decisionState).toBe('DECIDED');
    expect(useWorkbench.getState().reviewError).toBeNull();
  });

  it('a review that could not be read again for another reason says so, and keeps none of the stale answer', async () => {
    host(['cl-a']);
    await useWorkbench.getState().loadReview('cl-a');
    host(['cl-a'], { 'review:get': () => { throw new Error('Failed to fetch'); } });
    await useWorkbench.getState().refreshReviews();
    expect(useWorkbench.getState().reviewError).toContain('Failed to fetch');
    expect(useWorkbench.getState().reviews).toEqual({});
  });

  it('a refresh overtaken by a later one (the reviewer switched meanwhile) does not overwrite it when it answers late', async () => {
    host(['cl-a']);
    await useWorkbench.getState().loadReview('cl-a');
    let answerFirst: (v: unknown) => void = () => {};
    const late = new Promise((resolve) => (answerFirst = resolve));
    host(['cl-a'], { 'review:get': () => late as never });
    const first = useWorkbench.getState().refreshReviews();
    host(['cl-a'], { 'review:get': review('cl-a', 'DECIDED') });
    await useWorkbench.getState().refreshReviews();
    answerFirst(review('cl-a', 'PROPOSED'));
    await first;
    expect(useWorkbench.getState().reviews['cl-a']?.decisionState).toBe('DECIDED');
  });

  it('the gate shows the last gate asked for, whichever answers first', async () => {
    let answerFirst: (v: unknown) => void = () => {};
    const late = new Promise((resolve) => (answerFirst = resolve));
    host([], { 'case:gate': () => late as never });
    const first = useWorkbench.getState().loadGate();
    host([]);
    await useWorkbench.getState().loadGate();
    answerFirst({ ready: true, blockers: [], total: 0, byKind: {}, head: 'old', lastFinalization: null, final: false });
    await first;
    expect(useWorkbench.getState().gate?.head).toBe('h');
  });
});

describe('gate and audit slices', () => {
  it('finalize keeps the service’s refusal for a non-admin, and a DRAFT answer with its blockers', async () => {
    host([], { 'case:finalize': refuse('case:finalize', 'FORBIDDEN', 'case:finalize: priya.s is a reviewer; finalizing a case needs admin') });
    await useWorkbench.getState().finalizeCase();
    expect(useWorkbench.getState().finalizeOutcome).toEqual({ error: { code: 'FORBIDDEN', message: 'case:finalize: priya.s is a reviewer; finalizing a case needs admin', issues: [] } });
    const blockers = [{ kind: 'undecided', target: 'claim:cl-a', message: 'not decided', check: 'claim decisions' }];
    host([], { 'case:finalize': { final: false, blockers, head: 'h', certifiedHead: null } });
    await useWorkbench.getState().finalizeCase();
    expect(useWorkbench.getState().finalizeOutcome).toEqual({ result: { final: false, blockers, head: 'h', certifiedHead: null } });
  });

  it('verifying against a malformed head keeps the VALIDATION refusal with the head that was typed', async () => {
    host([], { 'audit:verify': refuse('audit:verify', 'VALIDATION', 'audit:verify: invalid request') });
    await useWorkbench.getState().verifyAgainstHead('  erwb-head:1:xyz ');
    expect(useWorkbench.getState().headCheck).toEqual({ expectedHead: 'erwb-head:1:xyz', error: { code: 'VALIDATION', message: 'audit:verify: invalid request', issues: [] } });
    expect(calls('audit:verify')[0]![1]).toEqual({ expectedHead: 'erwb-head:1:xyz', signatures: 'every' });
  });
});
