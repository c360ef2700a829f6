import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELATIONS, type Relation } from '../../../shared/domain/enums';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

/** Ways evidence can be present yet unusable (DESIGN §3.1): each must leave claim status alone. */
const UNUSABLE = ['QUARANTINED', 'REVOKED', 'SUPERSEDED', 'CANDIDATE', 'DISPUTED', 'UNAUTHORIZED', 'EXPIRED', 'NOT_YET_EFFECTIVE', 'INAPPLICABLE'] as const;
type Unusable = (typeof UNUSABLE)[number];

const NOW = '2026-11-25T00:00:00.000Z';

async function addUsable(tc: TestCase, id: string, group: string): Promise<string> {
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(id, { context: { independenceGroup: group, sourceRef: `src:${group}` } }));
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
  return revisionId;
}

async function addUnusable(tc: TestCase, id: string, how: Unusable): Promise<string> {
  const context =
    how === 'UNAUTHORIZED' ? { tenant: 'other-tenant' }
    : how === 'EXPIRED' ? { validUntil: '2026-11-01T00:00:00Z' }
    : how === 'NOT_YET_EFFECTIVE' ? { effectiveFrom: '2026-12-24T00:00:00Z' }
    : how === 'INAPPLICABLE' ? { appliesTo: ['SOME-OTHER-HOST'] }
    : {};
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(id, { context: { ...context, sourceRef: `src:${id}`, independenceGroup: id } }));
  const path: Partial<Record<Unusable, string[]>> = {
    QUARANTINED: ['QUARANTINED'],
    REVOKED: ['VALIDATED', 'REVOKED'],
    SUPERSEDED: ['VALIDATED', 'SUPERSEDED'],
    DISPUTED: ['VALIDATED', 'DISPUTED'],
    CANDIDATE: [],
  };
  for (const to of path[how] ?? ['VALIDATED']) {
    await tc.call('evidence:transition', { revisionId, to: to as never, reason: `setup ${how}` });
  }
  return revisionId;
}

const scenario = fc.record({
  usable: fc.array(fc.record({ relation: fc.constantFrom<Relation>(...RELATIONS), group: fc.constantFrom('g1', 'g2', 'g3') }), { maxLength: 4 }),
  unusable: fc.array(fc.record({ relation: fc.constantFrom<Relation>('FULL_SUPPORT', 'PARTIAL_SUPPORT', 'REFUTES'), how: fc.constantFrom(...UNUSABLE) }), { minLength: 1, maxLength: 4 }),
  minIndependentSources: fc.integer({ min: 1, max: 3 }),
});

describe('claim status through the claim channels', () => {
  it('never changes because of evidence that is not usable, and is never SUPPORTED without usable full support', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const tc = await createTestCase({ now: () => NOW });
        try {
          // The acting reviewer sees tenant acme only, so 'other-tenant' evidence is unauthorized to them.
          await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'rev', displayName: 'Reviewer', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' });
          await tc.call('claim:create', { claimId: 'cl-1', statement: 'encoded PowerShell ran on HOST-FS01', scope: ['HOST-FS01'], policy: { minIndependentSources: s.minIndependentSources, requiredKinds: [], quorumSize: null }, tenant: 'acme', classification: 'internal' });
          for (const [i, u] of s.usable.entries()) {
            const revisionId = await addUsable(tc, `ev-u${i}`, u.group);
            await tc.call('claim:bind', { claimId: 'cl-1', revisionId, relation: u.relation, role: 'SUPPORTING' });
          }
          tc.as('rev');
          const before = await tc.call('claim:get', { claimId: 'cl-1' });
          if (!s.usable.some((u) => u.relation === 'FULL_SUPPORT')) expect(before.status).not.toBe('SUPPORTED');
          tc.as('admin');
          for (const [i, u] of s.unusable.entries()) {
            const revisionId = await addUnusable(tc, `ev-x${i}`, u.how);
            await tc.call('claim:bind', { claimId: 'cl-1', revisionId, relation: u.relation, role: 'SUPPORTING' });
          }
          tc.as('rev');
          const after = await tc.call('claim:get', { claimId: 'cl-1' });
          expect({ status: after.status, support: after.support, refute: after.refute }).toEqual({ status: before.status, support: before.support, refute: before.refute });
        } finally {
          tc.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('three copies of one source against one official log is one source against one: MIXED, not SUPPORTED', async () => {
    const tc = await createTestCase();
    try {
      await tc.call('claim:create', { claimId: 'cl-blog', statement: '45.137.21.9 is an exfiltration endpoint', tenant: 'acme', classification: 'internal' });
      for (const i of [1, 2, 3]) {
        const { revisionId } = await tc.call('evidence:ingest', ingestRequest(`ev-blog-${i}`, { kind: 'threat_intel', context: { sourceRef: 'web:exfilwatch-blog/post-17', producer: `scraper-${i}`, producerType: 'agent' } }));
        await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'ok' });
        await tc.call('claim:bind', { claimId: 'cl-blog', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
      }
      let claim = await tc.call('claim:get', { claimId: 'cl-blog' });
      expect(claim.support).toEqual({ all: 3, independent: 1 });
      const { revisionId } = await tc.call('evidence:ingest', ingestRequest('ev-fw', { kind: 'log_record', context: { sourceRef: 'panos:traffic:1' } }));
      await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'ok' });
      await tc.call('claim:bind', { claimId: 'cl-blog', revisionId, relation: 'REFUTES', role: 'SUPPORTING' });
      claim = await tc.call('claim:get', { claimId: 'cl-blog' });
      expect(claim.status).toBe('MIXED');
      expect(claim.refute).toEqual({ all: 1, independent: 1 });
    } finally {
      tc.cleanup();
    }
  });
});
