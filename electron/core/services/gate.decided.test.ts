import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, approvedDecision, claimOn, validatedRevision } from '../../testing/workerScenario';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await addActors(tc);
});
afterEach(() => tc.cleanup());

const decidedEvidenceBlockers = async () => {
  tc.as('admin');
  const gate = await tc.call('case:gate', {});
  return gate.blockers.filter((b) => b.message.includes(' rests on '));
};

describe('gate: decisions resting on dead evidence', () => {
  it('does not block on evidence that was already revoked when the decision was proposed', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    tc.as(ACTORS.analyst);
    const { revisionId: dead } = await tc.call('evidence:ingest', ingestRequest('ev-dead', { content: 'feed B called it benign' }));
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: dead, to: 'REVOKED', reason: 'spoofed feed item' });
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    tc.as(ACTORS.analyst);
    await tc.call('claim:bind', { claimId: 'cl-1', revisionId: dead, relation: 'REFUTES', role: 'CONTEXT', rationale: 'kept for the record' });
    await approvedDecision(tc, 'cl-1');
    expect(await decidedEvidenceBlockers()).toEqual([]);
  });

  it('blocks once evidence the decision rests on is revoked after the proposal', async () => {
    const a = await validatedRevision(tc, 'ev-a');
    await claimOn(tc, 'cl-1', [{ revisionId: a, role: 'REQUIRED' }]);
    const decisionId = await approvedDecision(tc, 'cl-1');
    tc.as(ACTORS.revoker);
    await tc.call('evidence:transition', { revisionId: a, to: 'REVOKED', reason: 'sensor clock was wrong' });
    const blockers = await decidedEvidenceBlockers();
    expect(blockers.map((b) => b.target)).toEqual([`decision:${decisionId}`]);
  });
});
