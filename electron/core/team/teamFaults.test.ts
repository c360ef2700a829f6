import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { RequestOf } from '../../../shared/ipc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../testing/pgCluster';
import { caseRows, replicaMachine, type ReplicaMachine } from '../../testing/replicaMachine';
import { createReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';
import { verifyCaseFile } from '../audit/verifyFile';
import { readCaseMeta } from '../services/caseMeta';
import { openCaseFile } from '../store/caseFile';
import { publishCase, pushCase } from './publish';
import { syncCase } from './reconcile';
import { cloneCase } from './replica';
import { checkServedChain } from './servedChain';
import { initTeamStore, readReceipts } from './teamStore';

/**
 * The team server's failure scenarios (issue 15): the server killed in the middle of a push, and a
 * replica's sync killed with SIGKILL at random points. After restart and sync, nothing is lost or
 * doubled: each action's receipt is on the server exactly once and both replicas hold one case.
 */
let cluster: PgCluster;
let dir: string;
let caseId: string;
let a: ReplicaMachine;
let b: ReplicaMachine;
beforeAll(async () => {
  cluster = await startPgCluster();
  const admin = await connect();
  try {
    await initTeamStore(admin);
    dir = mkdtempSync(join(tmpdir(), 'erwb-team-faults-'));
    const origin = await createReviewCase();
    try {
      await origin.evidence('ev-1');
      caseId = readCaseMeta(origin.session.db()).caseId;
      await publishCase(origin.session.db(), admin);
      for (const name of ['a', 'b']) await cloneCase(admin, caseId, join(dir, `${name}.case.sqlite`));
      a = replicaMachine(dir, join(dir, 'a.case.sqlite'), join(origin.dir, 'user'));
      b = replicaMachine(dir, join(dir, 'b.case.sqlite'), join(origin.dir, 'user'));
    } finally {
      origin.cleanup();
    }
  } finally {
    await admin.end();
  }
}, 120_000);
afterAll(() => {
  cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: cluster.url });
  // A server killed under an open connection makes the client emit 'error'; its queries reject anyway.
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

const claim = (claimId: string): RequestOf<'claim:create'> => ({ claimId, statement: `statement ${claimId}`, scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal' });

/** The claims on the server, in chain order, and whether the chain served verifies. */
async function serverClaims(): Promise<string[]> {
  return withAdmin(async (client) => {
    const served = await readReceipts(client, caseId, 0, 1_000_000);
    expect(checkServedChain(served).firstBroken).toBeNull();
    return served.filter((r) => r.action === 'claim:create').map((r) => (r.readable ? (JSON.parse(r.body) as { claimId: string }).claimId : '?'));
  });
}

describe('team server faults', () => {
  it('loses nothing and doubles nothing when the server is killed in the middle of a push', async () => {
    await a.work('carol', async (m) => {
      for (let i = 0; i < 60; i++) await m.call('claim:create', claim(`cl-crash-${i}`));
    });
    const db = openCaseFile(a.path);
    try {
      let batches = 0;
      const cut = await withAdmin((client) =>
        pushCase(db, client, {
          batch: 10,
          onProgress: () => {
            if (++batches === 3) cluster.crash();
          },
        }).then(
          () => null,
          (err: unknown) => err as Error,
        ),
      );
      expect(cut).toBeInstanceOf(Error);
      cluster.restart();
      // The push resumes from whatever head the server recovered (a batch committed just before the
      // crash may be gone: the server's own log decides), and sends the rest exactly once.
      await withAdmin((client) => pushCase(db, client, { batch: 10 }));
    } finally {
      db.close();
    }
    const claims = await serverClaims();
    expect(claims.filter((c) => c.startsWith('cl-crash-'))).toEqual(Array.from({ length: 60 }, (_, i) => `cl-crash-${i}`));
    await withAdmin((client) => syncCase(b.path, client, b.identity('dave')));
    expect(caseRows(b.path)).toEqual(caseRows(a.path));
  }, 120_000);

  it('loses nothing and doubles nothing when a sync is killed with SIGKILL at each of its steps', async () => {
    const seeded = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const random = seeded(2026);
    // A few milliseconds past the step's announcement, varied by a seeded draw.
    const made: string[] = [];
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      // The server moves on (laptop A), while laptop B works offline: B's sync has to rebuild and replay.
      await a.work('carol', (m) => m.call('claim:create', claim(`cl-a-${round}`)));
      await withAdmin((client) => syncCase(a.path, client, a.identity('carol')));
      await b.work('dave', async (m) => {
        for (const n of [0, 1]) await m.call('claim:create', claim(`cl-b-${round}-${n}`));
      });
      made.push(`cl-a-${round}`, `cl-b-${round}-0`, `cl-b-${round}-1`);
      const child = spawn(process.execPath, ['--import', 'tsx', 'electron/host/teamCli.ts', 'sync', b.path, cluster.url, '--as', 'dave', '--user-data', b.userDataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ERWB_PASSPHRASE: TEST_PASSPHRASE },
      });
      // Each round kills it at another step: rebuilding, replaying, replacing the file, pushing.
      const at = ['rebuilding', 'took', 'replacing', 'pushing'][round]!;
      let stderr = '';
      const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
      await new Promise<void>((res) => {
        child.stderr.on('data', (d) => {
          stderr += String(d);
          if (stderr.includes(`sync: ${at}`)) res();
        });
        void exited.then(() => res());
      });
      await new Promise((r) => setTimeout(r, random() * 20));
      child.kill('SIGKILL');
      outcomes.push(`${at}: ${(await exited) === null ? 'killed' : 'had finished'}`);
      // Restarted: the next sync finishes the job, whatever the killed one had done.
      await withAdmin((client) => syncCase(b.path, client, b.identity('dave')));
    }
    await withAdmin((client) => syncCase(a.path, client, a.identity('carol')));
    // Every kill landed in the middle of the sync, at the step it was meant for.
    expect(outcomes).toEqual(['rebuilding: killed', 'took: killed', 'replacing: killed', 'pushing: killed']);
    const claims = await serverClaims();
    for (const id of made) expect(claims.filter((c) => c === id), id).toHaveLength(1);
    expect(caseRows(a.path)).toEqual(caseRows(b.path));
    for (const path of [a.path, b.path]) expect((await verifyCaseFile(path)).exitCode).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('.sync-'))).toEqual([]);
    expect(existsSync(b.path)).toBe(true);
  }, 180_000);
});
