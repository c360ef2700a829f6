import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaseMeta } from '../core/services/caseMeta';
import { TEAM_SCHEMA_VERSION } from '../core/team/migrations';
import { readReceipts, teamRoleName } from '../core/team/teamStore';
import { checkServedChain } from '../core/team/servedChain';
import { TEST_PASSPHRASE } from '../testing/testCase';
import { freePort, startPgCluster, type PgCluster } from '../testing/pgCluster';
import { createReviewCase, type ReviewCase } from '../testing/reviewCase';
import { runTeamCommand } from './teamCommand';

let cluster: PgCluster;
let rc: ReviewCase;
beforeAll(async () => {
  cluster = await startPgCluster();
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.claim('cl-1');
}, 120_000);
afterAll(() => {
  rc?.cleanup();
  cluster?.stop();
});

async function team(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runTeamCommand(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe('npm run team', () => {
  it('inits the schema, publishes a case, tells where it stands, and pushes what is new', async () => {
    const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
    // The real entry point, once: the script npm runs.
    const init = await promisify(execFile)(TSX, ['electron/host/teamCli.ts', 'init', cluster.url]);
    expect(init.stdout).toBe(`team schema at version ${TEAM_SCHEMA_VERSION} (was 0)\n`);
    expect((await team('init', cluster.url)).stdout).toBe(`team schema already at version ${TEAM_SCHEMA_VERSION}\n`);

    const { caseId } = readCaseMeta(rc.session.db());
    expect((await team('status', rc.casePath, cluster.url)).stdout).toMatch(`case ${caseId} is not on this server`);
    const published = await team('publish', rc.casePath, cluster.url);
    expect(published.code).toBe(0);
    const n = rc.receiptCount();
    expect(published.stdout).toContain(`pushed ${n} of ${n} receipts (head seq ${n})`);
    expect(published.stdout).toContain(`faye: ${teamRoleName('faye')}`);
    expect((await team('status', rc.casePath, cluster.url)).stdout).toBe(`case ${caseId}: local head seq ${n}, server head seq ${n}; in step\nconverger: nobody; 0 revocation jobs open in this file\n`);

    await rc.bind('cl-1', 'ev-1@1');
    const m = rc.receiptCount();
    expect((await team('status', rc.casePath, cluster.url)).stdout).toContain(`ahead of the server by ${m - n} receipts`);
    expect((await team('push', rc.casePath, cluster.url)).stdout).toBe(`pushed ${m - n} of ${m - n} receipts (head seq ${m})\n`);

    // A clone on this machine, then a pull of what was pushed since: verified by what changed
    // (the clone left this machine's mark in --user-data), then nothing left to pull.
    const clone = join(rc.dir, 'cli-clone.case.sqlite');
    const userData = join(rc.dir, 'cli-user');
    expect((await team('clone', cluster.url, caseId, clone, '--user-data', userData)).stdout).toBe(`cloned case ${caseId} into ${clone}: ${m} receipts, verified (head seq ${m})\n`);
    await rc.claim('cl-2');
    await team('push', rc.casePath, cluster.url);
    expect((await team('pull', clone, cluster.url, '--user-data', userData)).stdout).toBe(`pulled 1 receipts, verified: what changed since this machine last verified the file (head seq ${m + 1})\n`);
    expect((await team('pull', clone, cluster.url, '--user-data', userData)).stdout).toBe(`pulled 0 receipts, already at the server's head (head seq ${m + 1})\n`);

    // The reviewer's role logs in and reads the log through its own clearance.
    const faye = new pg.Client({ connectionString: cluster.urlAs(teamRoleName('faye')) });
    await faye.connect();
    try {
      const { rows } = await faye.query('SELECT count(*)::int AS n FROM erwb.team_receipt WHERE case_id = $1', [caseId]);
      expect(rows[0].n).toBe(m + 1);
    } finally {
      await faye.end();
    }
  });

  it('refuses what it cannot do, naming why, and writes nothing', async () => {
    expect((await team()).code).toBe(2);
    // sync, worker and drop need the reviewer they sign as; conflicts lists them; the rest take no options.
    expect((await team('sync', rc.casePath, cluster.url)).code).toBe(2);
    expect((await team('drop', rc.casePath, '1')).code).toBe(2);
    expect((await team('conflicts', rc.casePath, '--wait')).code).toBe(2);
    expect((await team('conflicts', rc.casePath)).stdout).toBe('no conflicts\n');
    expect(await team('drop', rc.casePath, '7', '--as', 'bob')).toMatchObject({ code: 1, stderr: 'team drop: no conflict 7 in this case file\n' });
    expect(await team('drop', rc.casePath, 'seven', '--as', 'bob')).toMatchObject({ code: 1, stderr: expect.stringContaining('conflict id: expected a positive whole number, got seven') as unknown });
    expect((await team('worker', rc.casePath, cluster.url)).code).toBe(2);
    expect((await team('push', rc.casePath, cluster.url, '--as', 'bob')).code).toBe(2);
    expect((await team('worker', rc.casePath, cluster.url, '--as', 'bob', '--lease-ms', 'soon'))).toMatchObject({ code: 1, stderr: expect.stringContaining('--lease-ms: expected a whole number') as unknown });
    expect((await team('publish', rc.casePath)).code).toBe(2);
    expect((await team('frobnicate', 'x', 'y')).stderr).toContain('usage:');
    const unreachable = await team('init', `postgres://nobody@127.0.0.1:${await freePort()}/postgres`);
    expect(unreachable).toMatchObject({ code: 1, stderr: expect.stringContaining('cannot reach the team server') as unknown });
    const missing = await team('publish', join(rc.dir, 'no-such.case.sqlite'), cluster.url);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('team publish:');

    // A file whose chain was edited outside the workbench is not published.
    const tampered = join(rc.dir, 'tampered.case.sqlite');
    await rc.session.db().backup(tampered);
    const db = new Database(tampered);
    db.exec('DROP TRIGGER audit_receipt_no_update');
    db.prepare("UPDATE audit_receipt SET at = '2020-01-01T00:00:00.000Z' WHERE seq = 2").run();
    db.prepare("UPDATE case_meta SET value = 'tampered-copy' WHERE key = 'case_id'").run();
    db.close();
    const refused = await team('publish', tampered, cluster.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/team publish: the case does not verify \(seq 2: .*\); nothing was published/);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      expect((await admin.query("SELECT 1 FROM erwb.team_case WHERE case_id = 'tampered-copy'")).rowCount).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

/** `npm run team -- worker …` as its own process, its stdout lines as they come. */
function startTeamWorker(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/host/teamCli.ts', 'worker', rc.casePath, cluster.url, '--as', 'bob', '--user-data', join(rc.dir, 'user'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ERWB_PASSPHRASE: TEST_PASSPHRASE },
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const seen = new Promise<void>((res, rej) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('claimed job')) res();
    });
    child.on('exit', () => rej(new Error(`worker exited before claiming a job: ${stderr}\n${lines.join('\n')}`)));
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((res) => child.on('exit', (code) => res({ code, stderr })));
  return { child, lines, claimed: seen, exited };
}

describe('npm run team -- worker', () => {
  it('survives a converger killed holding the lease: the next takes it over when it expires, and every job reaches the server once', async () => {
    await rc.evidence('ev-2');
    await rc.bind('cl-1', 'ev-2@1');
    rc.as('bob');
    await rc.call('evidence:transition', { revisionId: 'ev-2@1', to: 'REVOKED', reason: 'the capture was forged' });
    expect((await team('push', rc.casePath, cluster.url)).code).toBe(0);
    const { caseId } = readCaseMeta(rc.session.db());
    const status = await team('status', rc.casePath, cluster.url);
    expect(status.stdout).toMatch(/converger: nobody; [1-9]\d* revocation jobs open in this file/);

    // The first converger takes the lease and a job, then is killed before it can do anything with them.
    const first = startTeamWorker(['--lease-ms', '1500', '--pause-after-claim-ms', '60000']);
    await first.claimed;
    expect(first.lines[0]).toMatch(/^leased case .* \(token \d+\)$/);
    expect((await team('status', rc.casePath, cluster.url)).stdout).toMatch(/converger: .*:\d+:\w+ \(lease until /);
    // Another worker, told to not wait, is refused and does nothing.
    const passphraseFile = join(rc.dir, 'bob.passphrase');
    writeFileSync(passphraseFile, TEST_PASSPHRASE);
    const busy = await team('worker', rc.casePath, cluster.url, '--as', 'bob', '--user-data', join(rc.dir, 'user'), '--passphrase-file', passphraseFile);
    expect(busy).toMatchObject({ code: 1, stderr: expect.stringContaining('converges this case now; nothing was done') as unknown });
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startTeamWorker(['--lease-ms', '1500', '--wait']);
    const done = await second.exited;
    expect(done.code, done.stderr).toBe(0);
    expect(second.lines.at(-1)).toMatch(/^converged: [1-9]\d* jobs$/);

    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      const served = await readReceipts(admin, caseId, 0, 100_000);
      const jobs = served.filter((r) => r.action === 'revocation:converge').map((r) => (r.readable ? (JSON.parse(r.body) as { jobId: number }).jobId : null));
      expect(jobs.length).toBeGreaterThan(0);
      expect(new Set(jobs).size).toBe(jobs.length);
      const local = rc.session.db().prepare(`SELECT count(*) AS n FROM outbox_job WHERE status = 'DONE'`).get() as { n: number };
      expect(jobs).toHaveLength(local.n);
      expect(served.at(-1)!.seq).toBe(rc.receiptCount());
      expect(checkServedChain(served).firstBroken).toBeNull();
    } finally {
      await admin.end();
    }
    expect((await team('status', rc.casePath, cluster.url)).stdout).toContain('in step\nconverger: nobody; 0 revocation jobs open in this file\n');
  }, 60_000);
});
