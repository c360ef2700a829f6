import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { RequestOf } from '../../../shared/ipc/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PgCluster } from '../../testing/pgCluster';
import { useTeamServer } from '../../testing/teamServer';
import { caseRows, replicaMachine, type ReplicaMachine } from '../../testing/replicaMachine';
import { createReviewCase } from '../../testing/reviewCase';
import { verifyCaseFile } from '../audit/verifyFile';
import { readCaseMeta } from '../services/caseMeta';
import { openCaseFile } from '../store/caseFile';
import { publishCase } from './publish';
import { dropConflict, listConflicts } from './conflicts';
import { syncCase } from './reconcile';
import { cloneCase } from './replica';
import { readReceipts, teamRoleName } from './teamStore';
import { checkServedChain } from './servedChain';

const server = useTeamServer();
let cluster: PgCluster;
let admin: pg.Client;
beforeAll(() => void ({ cluster, admin } = server));

let dir: string;
let caseId: string;
let a: ReplicaMachine;
let b: ReplicaMachine;
let decision: { decisionId: string; fingerprint: string };

/**
 * One case on the server and two laptops with a replica each. The case: ev-1 bound to cl-1, and a
 * decision on cl-1 proposed by bob, waiting for a second reviewer.
 */
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-reconcile-'));
  const origin = await createReviewCase();
  try {
    await origin.evidence('ev-1');
    await origin.claim('cl-1');
    await origin.bind('cl-1', 'ev-1@1');
    origin.as('bob');
    const proposed = await origin.call('decision:propose', { claimId: 'cl-1', verdict: 'SUPPORTED', rationale: 'the sign-in is in the log' });
    decision = { decisionId: proposed.decisionId, fingerprint: proposed.fingerprint };
    caseId = readCaseMeta(origin.session.db()).caseId;
    await publishCase(origin.session.db(), admin);
    for (const name of ['a', 'b']) await cloneCase(admin, caseId, join(dir, `${name}.case.sqlite`));
    a = replicaMachine(dir, join(dir, 'a.case.sqlite'), join(origin.dir, 'user'));
    b = replicaMachine(dir, join(dir, 'b.case.sqlite'), join(origin.dir, 'user'));
  } finally {
    origin.cleanup();
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `work` connected as the reviewer's own PostgreSQL role. */
async function asRole<T>(actorId: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster.urlAs(teamRoleName(actorId)) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const context = (tag: string): RequestOf<'evidence:ingest'>['context'] => ({
  sourceType: 'proxy', sourceRef: `proxy://acme/${tag}`, sourceVersion: '1', observedAt: '2026-11-19T23:00:00.000Z', effectiveFrom: '2026-11-19T23:00:00.000Z',
  validUntil: null, producerType: 'tool', producer: 'squid', tenant: 'acme', classification: 'internal', trustTier: 'trusted', confidence: 0.8,
  independenceGroup: `proxy-${tag}`, validationMethod: 'hash-and-source-check', appliesTo: ['acme'],
});

/** Offline work on both laptops that touches different things: each adds evidence and a claim resting on it. */
async function independentWork(): Promise<void> {
  await a.work('carol', async (m) => {
    await m.call('evidence:ingest', { evidenceId: 'ev-a', title: 'From A', kind: 'log_record', content: 'beacon seen from laptop A', context: context('a') });
    await m.call('claim:create', { claimId: 'cl-a', statement: 'HOST-FS01 beaconed (A)', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal' });
    await m.call('claim:bind', { claimId: 'cl-a', revisionId: 'ev-a@1', relation: 'FULL_SUPPORT', role: 'REQUIRED', rationale: 'seen from A' });
  });
  await b.work('dave', async (m) => {
    await m.call('evidence:ingest', { evidenceId: 'ev-b', title: 'From B', kind: 'log_record', content: 'beacon seen from laptop B', context: context('b') });
    await m.call('claim:create', { claimId: 'cl-b', statement: 'HOST-FS01 beaconed (B)', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal' });
    await m.call('claim:bind', { claimId: 'cl-b', revisionId: 'ev-b@1', relation: 'FULL_SUPPORT', role: 'REQUIRED', rationale: 'seen from B' });
  });
}

/** The claims and evidence a replica holds, by id: what both laptops must agree on. */
const holdings = (path: string) => {
  const db = openCaseFile(path);
  try {
    return {
      claims: db.prepare('SELECT claim_id FROM claim ORDER BY claim_id').all(),
      bindings: db.prepare('SELECT claim_id, revision_id FROM claim_binding ORDER BY 1, 2').all(),
      revisions: db.prepare('SELECT revision_id, state FROM evidence_revision ORDER BY 1').all(),
      decisions: db.prepare('SELECT decision_id, status FROM decision ORDER BY 1').all(),
    };
  } finally {
    db.close();
  }
};

async function expectOneCase(): Promise<void> {
  expect(caseRows(a.path)).toEqual(caseRows(b.path));
  for (const path of [a.path, b.path]) expect((await verifyCaseFile(path)).exitCode).toBe(0);
  expect(checkServedChain(await readReceipts(admin, caseId, 0, 100_000)).firstBroken).toBeNull();
}

describe('two reviewers offline on one case', () => {
  for (const order of [['a', 'b'], ['b', 'a']] as const) {
    it(`both sync (${order.join(' then ')}): every action applied once, one chain, the same case on both laptops`, async () => {
      await independentWork();
      const laptops = { a: { m: a, who: 'carol' }, b: { m: b, who: 'dave' } };
      const [first, second] = [laptops[order[0]], laptops[order[1]]];
      // Each reviewer syncs with their own PostgreSQL login, not the admin's.
      const one = await asRole(first.who, (client) => syncCase(first.m.path, client, first.m.identity(first.who)));
      expect(one).toMatchObject({ pushed: 3, replayed: [], conflicts: [] });
      // The second laptop's actions were made on a head the server has moved past: taken again there, in order.
      const two = await asRole(second.who, (client) => syncCase(second.m.path, client, second.m.identity(second.who)));
      expect(two).toMatchObject({ pulled: 3, replayed: ['evidence:ingest', 'claim:create', 'claim:bind'], conflicts: [] });
      expect(two.pushed).toBe(3);
      // The first laptop catches up.
      expect(await asRole(first.who, (client) => syncCase(first.m.path, client, first.m.identity(first.who)))).toMatchObject({ pulled: 3, pushed: 0 });
      await expectOneCase();
      const held = holdings(a.path);
      expect(held.claims.map((c) => (c as { claim_id: string }).claim_id)).toEqual(['cl-1', 'cl-a', 'cl-b']);
      expect(held.bindings).toHaveLength(3);
      // Each action's receipt is on the server exactly once.
      const actions = (await readReceipts(admin, caseId, 0, 100_000)).map((r) => r.action);
      expect(actions.filter((x) => x === 'claim:create')).toHaveLength(3);
    });
  }

  it('four eyes across two laptops offline: the second approval of one proposal is a conflict for its author, to redo or drop', async () => {
    await a.work('carol', (m) => m.call('decision:approve', decision));
    await b.work('dave', async (m) => {
      await m.call('decision:approve', decision);
      await m.call('claim:create', { claimId: 'cl-d', statement: 'made by dave offline', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal' });
    });
    expect(await syncCase(a.path, admin, a.identity('carol'))).toMatchObject({ pushed: 1, conflicts: [] });
    const two = await syncCase(b.path, admin, b.identity('dave'));
    // The approval found the decision approved already (carol's): refused by the same check as at the desk.
    expect(two.replayed).toEqual(['claim:create']);
    expect(two.conflicts).toEqual([
      expect.objectContaining({ actor: 'dave', channel: 'decision:approve', reason: expect.stringMatching(/^no longer valid on the server's newer head: CONFLICT: /) as unknown }),
    ]);
    await syncCase(a.path, admin, a.identity('carol'));
    await expectOneCase();
    expect(holdings(b.path).decisions).toEqual([{ decision_id: decision.decisionId, status: 'APPROVED' }]);

    // The conflict waits in dave's replica (not carol's), with the request, until dave drops it.
    const db = openCaseFile(b.path);
    try {
      const [waiting] = listConflicts(db, 'dave');
      expect(JSON.parse(waiting!.request!)).toEqual(decision);
      expect(listConflicts(db, 'carol')).toEqual([]);
      expect(() => dropConflict(db, waiting!.conflict_id, 'carol')).toThrow(/dave's to redo or drop/);
      dropConflict(db, waiting!.conflict_id, 'dave');
      expect(listConflicts(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("keeps another reviewer's provisional action as a conflict for them, never applying it unsigned", async () => {
    await a.work('carol', (m) => m.call('claim:create', { claimId: 'cl-a', statement: 'by carol', scope: [], tenant: 'acme', classification: 'internal' }));
    await b.work('erin', (m) => m.call('claim:create', { claimId: 'cl-e', statement: 'by erin on laptop B', scope: [], tenant: 'acme', classification: 'internal' }));
    await syncCase(a.path, admin, a.identity('carol'));
    // dave syncs laptop B; erin's claim there is hers to redo.
    const two = await syncCase(b.path, admin, b.identity('dave'));
    expect(two.conflicts).toEqual([expect.objectContaining({ actor: 'erin', channel: 'claim:create', reason: expect.stringContaining('made by erin') as unknown })]);
    expect(holdings(b.path).claims.map((c) => (c as { claim_id: string }).claim_id)).toEqual(['cl-1', 'cl-a']);
  });
});
