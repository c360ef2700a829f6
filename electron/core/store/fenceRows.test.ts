import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ancestorFences, ancestorRevisions, derivedRevisions, descendantRevisions, writeFence } from './fenceRows';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { openAsAttacker, tamperedCopy } from '../../testing/tamper';
import { ACTORS, addActors, validatedRevision } from '../../testing/workerScenario';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('fence rows', () => {
  it('refuses to write a fence outside the transaction of the move it belongs to', async () => {
    const { revisionId } = await tc.call('evidence:ingest', ingestRequest('ev-a'));
    const ctx = tc.session.context();
    const fence = { revisionId, cause: 'REVOKED', fromState: 'VALIDATED', rootFenceId: null, parentFenceId: null, reason: 'feed fabricated', supportingRef: null } as const;
    expect(() => writeFence(ctx, fence)).toThrow(
      `writeFence(${revisionId}) must run inside the change's transaction`,
    );
  });

  // A file written before PROV (verified as it is, without migrating) has no provenance tables:
  // nothing was derived from anything, rather than a failure to read.
  it('a case without the provenance tables has no ancestors, descendants or derivations', async () => {
    const { revisionId } = await tc.call('evidence:ingest', ingestRequest('ev-a'));
    tc.session.close();
    const db = openAsAttacker(tamperedCopy(tc.casePath, (d) => d.exec('DROP TABLE prov_edge; DROP TABLE prov_node')));
    try {
      expect(ancestorFences(db, [revisionId]).size).toBe(0);
      expect(ancestorRevisions(db, [revisionId]).size).toBe(0);
      expect(descendantRevisions(db, [revisionId])).toEqual([]);
      expect(derivedRevisions(db, revisionId, null, 10)).toEqual([]);
      expect(descendantRevisions(db, [])).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('walks PROV derivations across lineages: ancestors of each revision, descendants, direct derivations', async () => {
    await addActors(tc);
    const a = await validatedRevision(tc, 'ev-a');
    const b = await validatedRevision(tc, 'ev-b');
    const c = await validatedRevision(tc, 'ev-c');
    tc.as(ACTORS.analyst);
    const edges = [
      { type: 'wasDerivedFrom', from: `rev:${b}`, to: `rev:${a}` },
      { type: 'wasDerivedFrom', from: `rev:${c}`, to: `rev:${b}` },
    ] as const;
    await tc.call('prov:record', { tenant: 'acme', classification: 'internal', edges: [...edges] });
    const db = tc.session.db();
    expect(ancestorRevisions(db, [a, b, c])).toEqual(new Map([[b, [a]], [c, [a, b]]]));
    expect(descendantRevisions(db, [a])).toEqual([b, c]);
    // Direct derivations stop at the first revision: c is b's, not a's.
    expect(derivedRevisions(db, a, null, 10)).toEqual([b]);
  });
});
