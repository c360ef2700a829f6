import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type PgCluster } from '../../testing/pgCluster';
import { useTeamServer } from '../../testing/teamServer';
import { replicaMachine } from '../../testing/replicaMachine';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { readCaseMeta } from '../services/caseMeta';
import { writeTransaction } from '../store/caseFile';
import { noteServer } from '../store/replicaRows';
import { publishCase, pushCase } from './publish';
import { cloneCase } from './replica';
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
