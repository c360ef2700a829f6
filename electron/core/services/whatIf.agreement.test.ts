import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoCase } from '../demo';
import { buildDecidedCase } from '../../testing/decidedCase';
import { createReviewCase } from '../../testing/reviewCase';
import { claimStates, disagreements, openCopy, openRemediations, revokeOnCopy, type CaseDir, type ClaimState, type OpenedCopy } from '../../testing/revokeOnCopy';
import { TEST_PASSPHRASE } from '../../testing/testCase';

/**
 * Issue 14 §2: the what-if must say exactly what revoking would do. Each check revokes for real on
 * a copy of the case, runs the worker to the end, and compares every claim's status and support
 * projection and every remediation opened with whatIf:revoke's answer on an untouched copy.
 */

interface Reference {
  dir: CaseDir;
  orig: OpenedCopy;
  before: { claims: Map<string, ClaimState>; remediations: Set<string> };
}

async function reference(dir: CaseDir): Promise<Reference> {
  const orig = openCopy(dir);
  return { dir, orig, before: { claims: await claimStates(orig), remediations: openRemediations(orig) } };
}

async function check(ref: Reference, revisionId: string): Promise<{ changes: number; remediations: number }> {
  const predicted = await ref.orig.call('whatIf:revoke', { revisionIds: [revisionId] });
  const state = predicted.revisions[0]!.state;
  const after = state === 'REVOKED' ? ref.before : await revokeOnCopy(ref.dir, revisionId);
  expect(disagreements(predicted.claims, ref.before, after), `revoking ${revisionId} (${state})`).toEqual([]);
  return { changes: predicted.statusChanges, remediations: predicted.remediations };
}

describe('what-if against revoking for real on a copy', () => {
  describe('every revision of the demo case', () => {
    let tmp: string;
    let ref: Reference;
    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'erwb-whatif-demo-'));
      const path = await ensureDemoCase(resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json'), tmp);
      ref = await reference({ pristine: tmp, casePath: relative(tmp, path), userDir: '.', actor: 'lena.k', passphrase: 'demo-lena-2231' });
    }, 120_000);
    afterAll(() => {
      ref?.orig.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('agrees for each one, and some of them flip claims', async () => {
      const revisions = ref.orig.seat.db().prepare('SELECT revision_id FROM evidence_revision ORDER BY revision_id').pluck().all() as string[];
      expect(revisions.length).toBeGreaterThanOrEqual(28);
      let changes = 0;
      for (const id of revisions) changes += (await check(ref, id)).changes;
      // The comparison must have had something to compare: the demo has claims on single threads.
      expect(changes).toBeGreaterThan(0);
    }, 300_000);
  });

  describe('a generated case of 1,000 claims', () => {
    let ref: Reference;
    let revisions: string[];
    let cleanup: () => void;
    beforeAll(async () => {
      const rc = await createReviewCase();
      cleanup = rc.cleanup;
      revisions = (await buildDecidedCase(rc, { claims: 1000, seed: 20261202 })).revisions;
      rc.session.close();
      ref = await reference({ pristine: rc.dir, casePath: 'test.case.sqlite', userDir: 'user', actor: 'admin', passphrase: TEST_PASSPHRASE });
    }, 600_000);
    afterAll(() => {
      ref?.orig.close();
      cleanup?.();
    });

    it('agrees for revisions drawn at random (property)', async () => {
      let changes = 0;
      let remediations = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...revisions), async (id) => {
          const r = await check(ref, id);
          changes += r.changes;
          remediations += r.remediations;
        }),
        { numRuns: 25, seed: 14 },
      );
      // Drawn so that some revocations flip claims and open remediations of decisions.
      expect(changes).toBeGreaterThan(0);
      expect(remediations).toBeGreaterThan(0);
    }, 600_000);
  });
});
