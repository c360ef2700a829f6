import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type PgCluster } from '../../testing/pgCluster';
import { useTeamServer } from '../../testing/teamServer';
import { replicaMachine } from '../../testing/replicaMachine';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { createTestCase } from '../../testing/testCase';
import { ACTORS, addActors, claimOn, validatedRevision } from '../../testing/workerScenario';
import { readCaseMeta } from '../services/caseMeta';
import { writeTransaction } from '../store/caseFile';
import { noteServer } from '../store/replicaRows';
import { convergerStanding, releaseConvergerLease, takeConvergerLease } from './convergerLease';
import { publishCase, pushCase } from './publish';
import { cloneCase } from './replica';
import { readReceipts } from './teamStore';
import { serverLocation } from './teamView';

const server = useTeamServer();
let cluster: PgCluster;
let admin: pg.Client;
let rc: ReviewCase;
let dir: string;
let caseId: string;
beforeAll(async () => {
  ({ cluster, admin } = server);
  dir = mkdtempSync(join(tmpdir(), 'erwb-team-view-'));
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  caseId = readCaseMeta(rc.session.db()).caseId;
});
afterAll(() => {
  rc?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('the window on a team case', () => {
  it('says a case kept on one machine is no replica', async () => {
    rc.as('bob');
    expect(await rc.call('team:status', {})).toMatchObject({ replica: false, server: null, ahead: 0, behind: 0, conflicts: [] });
    expect((await rc.refusal('team:sync', {})).message).toMatch(/not on a team server/);
  });

  it('shows where the replica stands, who else works on the case, and syncs it through the reviewer\'s own role', async () => {
    await publishCase(rc.session.db(), admin);
    writeTransaction(rc.session.db(), () => noteServer(rc.session.db(), serverLocation(cluster.url)));
    expect(serverLocation('postgres://admin:secret@db.example:5433/erwb?sslmode=require')).toBe('postgres://db.example:5433/erwb?sslmode=require');
    rc.as('bob');
    const n = rc.receiptCount();
    expect(await rc.call('team:status', {})).toMatchObject({
      replica: true, role: expect.stringMatching(/^erwb_bob_/) as unknown, problem: null, localHead: n, serverHead: n, ahead: 0, behind: 0, diverged: false,
      others: [expect.objectContaining({ actorId: 'admin' })],
    });
    await rc.call('claim:create', { claimId: 'cl-bob', statement: 'by bob', scope: [], tenant: 'acme', classification: 'internal' });
    expect(await rc.call('team:status', {})).toMatchObject({ ahead: 1, behind: 0 });
    expect(await rc.call('team:sync', {})).toEqual({ pulled: 0, pushed: 1, head: n + 1 });

    // Carol, on another laptop, pushes; this window sees it behind, and its sync pulls it in.
    const carolPath = join(dir, 'carol.case.sqlite');
    await cloneCase(admin, caseId, carolPath);
    await replicaMachine(dir, carolPath, join(rc.dir, 'user')).work('carol', async (m) => {
      await m.call('claim:create', { claimId: 'cl-carol', statement: 'by carol', scope: [], tenant: 'acme', classification: 'internal' });
      await pushCase(m.seat.db(), admin);
    });
    const behind = await rc.call('team:status', {});
    expect(behind).toMatchObject({ ahead: 0, behind: 1, diverged: false });
    expect(behind.others.map((o) => o.actorId)).toContain('carol');
    expect(await rc.call('team:sync', {})).toEqual({ pulled: 1, pushed: 0, head: n + 2 });
    expect((await rc.call('claim:get', { claimId: 'cl-carol' })).statement).toBe('by carol');
    // What a sync pulled is the server's, not an action of this window to take again.
    expect(rc.session.db().prepare(`SELECT count(*) FROM replica_pending WHERE last_seq > ?`).pluck().get(n + 1)).toBe(0);
  });

  it('lists the reviewer\'s own conflicts and drops them, and tells a diverged replica how to sync', async () => {
    const db = rc.session.db();
    const add = db.prepare(`INSERT INTO replica_conflict (actor, channel, request, reason, made_at, found_at) VALUES (?, 'claim:create', '{}', 'stale', 'then', 'now')`);
    writeTransaction(db, () => {
      add.run('bob');
      add.run('carol');
    });
    rc.as('bob');
    const { conflicts } = await rc.call('team:status', {});
    expect(conflicts).toEqual([expect.objectContaining({ actor: 'bob', channel: 'claim:create', reason: 'stale' })]);
    expect((await rc.refusal('team:dropConflict', { conflictId: conflicts[0]!.conflictId + 1 })).message).toMatch(/carol's to redo or drop/);
    expect(await rc.call('team:dropConflict', { conflictId: conflicts[0]!.conflictId })).toEqual({ dropped: true });
    expect((await rc.call('team:status', {})).conflicts).toEqual([]);

    // The server moves past an action taken here: the window cannot fast-forward, and says what to run.
    const carolPath = join(dir, 'carol.case.sqlite');
    await replicaMachine(dir, carolPath, join(rc.dir, 'user')).work('carol', async (m) => {
      await m.call('claim:create', { claimId: 'cl-carol-2', statement: 'by carol again', scope: [], tenant: 'acme', classification: 'internal' });
      await pushCase(m.seat.db(), admin);
    });
    await rc.call('claim:create', { claimId: 'cl-bob-2', statement: 'by bob, offline', scope: [], tenant: 'acme', classification: 'internal' });
    expect(await rc.call('team:status', {})).toMatchObject({ diverged: true, ahead: 1, behind: 1 });
    const refused = await rc.refusal('team:sync', {});
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toMatch(/npm run team -- sync <case-file> postgres:\/\/.* --as bob/);
  });

  it('reports a server it cannot reach instead of failing the view', async () => {
    const db = rc.session.db();
    const nobody = await freePort();
    writeTransaction(db, () => noteServer(db, `postgres://127.0.0.1:${nobody}/postgres`));
    const status = await rc.call('team:status', {});
    expect(status).toMatchObject({ replica: true, serverHead: null, problem: expect.stringContaining('cannot reach the team server') as unknown });
  });
});

describe('the window as the case\'s one converger', () => {
  it('converges the open revocation jobs under the server\'s lease, and names the holder when another worker has it', async () => {
    const tc = await createTestCase();
    try {
      await addActors(tc);
      const db = tc.session.db();
      const id = readCaseMeta(db).caseId;
      const revoked = await validatedRevision(tc, 'ev-a');
      for (const claimId of ['cl-1', 'cl-2', 'cl-3']) await claimOn(tc, claimId, [{ revisionId: revoked, role: 'REQUIRED' }]);
      await publishCase(db, admin);
      writeTransaction(db, () => noteServer(db, serverLocation(cluster.url)));
      tc.as(ACTORS.revoker);
      await tc.call('evidence:transition', { revisionId: revoked, to: 'REVOKED', reason: 'the export was forged' });
      const before = await tc.call('team:status', {});
      expect(before).toMatchObject({ problem: null, ahead: 1, converger: null });
      expect(before.openJobs).toBeGreaterThan(0);

      // A headless worker elsewhere holds the lease: the window converges nothing and says who does.
      const elsewhere = (await takeConvergerLease(admin, id, 'worker:soc-box'))!;
      expect(await tc.call('team:status', {})).toMatchObject({ converger: 'worker:soc-box' });
      expect(await tc.call('team:converge', {})).toEqual({ status: 'busy', heldBy: 'worker:soc-box', converged: 0, openJobs: before.openJobs, heldLocally: null });
      expect((await readReceipts(admin, id, 0, 10_000)).filter((r) => r.action === 'revocation:converge')).toEqual([]);
      await releaseConvergerLease(admin, elsewhere);

      const run = await tc.call('team:converge', {});
      expect(run).toMatchObject({ status: 'converged', heldBy: expect.stringMatching(/^window:rev1:/) as unknown, openJobs: 0 });
      expect(run.converged).toBeGreaterThan(0);
      // Every convergence receipt is on the server (its trigger took each only under the live
      // lease), the lease is free again, and the window is in step with nothing left to take again.
      const onServer = (await readReceipts(admin, id, 0, 10_000)).filter((r) => r.action === 'revocation:converge');
      expect(onServer).toHaveLength(run.converged);
      expect(await convergerStanding(admin, id)).toEqual({ holder: null, expiresAt: null });
      expect(await tc.call('team:status', {})).toMatchObject({ ahead: 0, behind: 0, openJobs: 0 });
      expect(db.prepare('SELECT count(*) FROM replica_pending').pluck().get()).toBe(0);
    } finally {
      tc.cleanup();
    }
  });

  it('is refused on a case kept on one machine', async () => {
    const solo = await createReviewCase();
    try {
      solo.as('bob');
      expect((await solo.refusal('team:converge', {})).message).toMatch(/team:converge: this case is not on a team server/);
    } finally {
      solo.cleanup();
    }
  });
});
