import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_STATES, type LifecycleState } from '../../../shared/domain/enums';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

/** How to reach each state from a fresh CANDIDATE through legal transitions only. */
const PATH_TO: Record<LifecycleState, LifecycleState[]> = {
  CANDIDATE: [],
  VALIDATED: ['VALIDATED'],
  DISPUTED: ['VALIDATED', 'DISPUTED'],
  SUPERSEDED: ['VALIDATED', 'SUPERSEDED'],
  QUARANTINED: ['QUARANTINED'],
  REVOKED: ['REVOKED'],
};

/** The contract (DESIGN §3.1), written out independently of shared/domain/lifecycle.ts. */
const LEGAL = new Set([
  'CANDIDATE>VALIDATED', 'CANDIDATE>QUARANTINED', 'CANDIDATE>REVOKED',
  'VALIDATED>DISPUTED', 'VALIDATED>SUPERSEDED', 'VALIDATED>QUARANTINED', 'VALIDATED>REVOKED',
  'DISPUTED>VALIDATED', 'DISPUTED>SUPERSEDED', 'DISPUTED>REVOKED', 'DISPUTED>QUARANTINED',
  'QUARANTINED>CANDIDATE', 'QUARANTINED>REVOKED',
  'SUPERSEDED>REVOKED',
]);

const PAIRS = LIFECYCLE_STATES.flatMap((from) => LIFECYCLE_STATES.map((to) => [from, to] as const));

let tc: TestCase;
beforeAll(async () => {
  tc = await createTestCase();
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'rev', displayName: 'Reviewer', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' });
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'ana', displayName: 'Analyst', role: 'analyst', tenants: ['acme'], maxClassification: 'restricted' });
  tc.as('rev');
});
afterAll(() => tc.cleanup());

async function revisionIn(state: LifecycleState, id: string): Promise<string> {
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(id));
  for (const step of PATH_TO[state]) {
    await tc.call('evidence:transition', { revisionId, to: step, reason: `setup: move to ${step}` });
  }
  return revisionId;
}

describe('lifecycle transitions through evidence:transition (all 36 pairs)', () => {
  it('covers 36 pairs, 14 of them legal', () => {
    expect(PAIRS).toHaveLength(36);
    expect(PAIRS.filter(([f, t]) => LEGAL.has(`${f}>${t}`))).toHaveLength(14);
  });

  it.each(PAIRS)('%s → %s', async (from, to) => {
    const revisionId = await revisionIn(from, `ev-${from.toLowerCase()}-${to.toLowerCase()}`);
    const before = await tc.call('evidence:get', { revisionId });
    expect(before.state).toBe(from);
    const headBefore = await tc.call('audit:head', {});
    const digestBefore = tableDigest(tc.casePath);

    const answer = await tc.raw('evidence:transition', { revisionId, to, reason: `test ${from}→${to}`, supportingRef: 'ticket:T-1' });

    if (LEGAL.has(`${from}>${to}`)) {
      expect(answer.ok, JSON.stringify(answer)).toBe(true);
      const after = await tc.call('evidence:get', { revisionId });
      expect(after.state).toBe(to);
      expect(after.stateVersion).toBe(before.stateVersion + 1);
      expect(after.transitions.at(-1)).toMatchObject({ from, to, reason: `test ${from}→${to}`, actor: 'rev', supportingRef: 'ticket:T-1' });
      expect(after.transitions.at(-1)!.at).toMatch(/^\d{4}-\d\d-\d\dT/);
      const receipts = await tc.call('audit:list', { limit: 5 });
      const newest = receipts.items[0]!;
      expect(newest.seq).toBeGreaterThan(headBefore.seq);
      expect(newest.action).toBe('evidence:transition');
      expect(newest.targets).toContain(`revision:${revisionId}`);
    } else {
      expect(answer.ok).toBe(false);
      if (answer.ok) return;
      expect(answer.error.code).toBe('ILLEGAL_TRANSITION');
      expect(answer.error.message).toContain(from);
      expect(answer.error.message).toContain(to);
      expect(answer.error.message).toMatch(from === 'REVOKED' ? /terminal/ : /allowed/);
      expect(tableDigest(tc.casePath)).toBe(digestBefore);
      expect((await tc.call('audit:head', {})).seq).toBe(headBefore.seq);
    }
  });

  it('requires a reason and writes nothing without one', async () => {
    const revisionId = await revisionIn('CANDIDATE', 'ev-noreason');
    const digest = tableDigest(tc.casePath);
    const answer = await tc.raw('evidence:transition', { revisionId, to: 'QUARANTINED', reason: '   ' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['reason'] }] } });
    expect(tableDigest(tc.casePath)).toBe(digest);
  });

  it('keeps revoke and validate for reviewers: an analyst is refused and nothing is written', async () => {
    const revisionId = await revisionIn('VALIDATED', 'ev-analyst');
    tc.as('ana');
    try {
      const digest = tableDigest(tc.casePath);
      const answer = await tc.raw('evidence:transition', { revisionId, to: 'REVOKED', reason: 'I think it is fake' });
      expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect(tableDigest(tc.casePath)).toBe(digest);
    } finally {
      tc.as('rev');
    }
  });

  it('a correction is a new revision that supersedes the old one in the same lineage', async () => {
    const old = await revisionIn('VALIDATED', 'ev-corrected');
    const next = await tc.call('evidence:revise', { supersedes: old, content: 'corrected process event', reason: 'wrong host in v1' });
    expect(next.revisionId).toBe('ev-corrected@2');
    const oldNow = await tc.call('evidence:get', { revisionId: old });
    expect(oldNow.state).toBe('SUPERSEDED');
    expect(oldNow.content).toBe('process event for ev-corrected on HOST-FS01');
    const newer = await tc.call('evidence:get', { revisionId: next.revisionId });
    expect(newer).toMatchObject({ supersedes: old, state: 'CANDIDATE', evidenceId: 'ev-corrected', revision: 2 });
    const again = await tc.raw('evidence:revise', { supersedes: old, content: 'x', reason: 'stale base' });
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });
});
