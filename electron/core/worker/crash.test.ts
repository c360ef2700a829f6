import { TEST_PASSPHRASE } from '../../testing/testCase';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveProjection, loadProjectionStates } from '../services/projection';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ACTORS, addActors, bulkDependents, validatedRevision } from '../../testing/workerScenario';

/**
 * Kills the worker process with SIGKILL at random points while it converges 10,000 dependents,
 * restarts it, and checks that convergence completes with every projection equal to a
 * from-scratch recomputation, no job lost and none applied twice.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
// `node --import tsx`, not the tsx CLI: the CLI runs the script in a child process, which would
// survive a SIGKILL sent to the CLI and keep working.
const TSX_LOADER = ['--import', 'tsx'];
const CLI = join(ROOT, 'electron', 'core', 'worker', 'cli.ts');
const DEPENDENTS = 10_000;
const FAN_OUT = 250;
const LEASE_MS = 800;

let tc: TestCase;
let revoked: string;
let claimIds: string[];

beforeAll(async () => {
  tc = await createTestCase();
  await addActors(tc);
  revoked = await validatedRevision(tc, 'ev-a');
  claimIds = bulkDependents(tc.session.db(), revoked, DEPENDENTS, { decideEvery: 100 });
  tc.as(ACTORS.revoker);
  await tc.call('evidence:transition', { revisionId: revoked, to: 'REVOKED', reason: 'forged export' });
});
afterAll(() => tc.cleanup());

interface Worker {
  child: ChildProcess;
  lines: string[];
  /** Resolves once `predicate` holds for the lines seen so far. */
  until: (predicate: (lines: string[]) => boolean) => Promise<void>;
  exited: Promise<number | null>;
}

function startWorker(extra: string[] = []): Worker {
  const child = spawn(process.execPath, [...TSX_LOADER, CLI, tc.casePath, '--user-data', join(tc.dir, 'user'), '--as', 'admin', '--lease-ms', String(LEASE_MS), '--fan-out', String(FAN_OUT), ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ERWB_PASSPHRASE: TEST_PASSPHRASE },
  });
  const lines: string[] = [];
  const waiters: { predicate: (l: string[]) => boolean; resolve: () => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (!w.predicate(lines)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  void exited.then(() => {
    for (const w of waiters) w.resolve();
  });
  return {
    child,
    lines,
    exited,
    until: (predicate) =>
      new Promise<void>((res, rej) => {
        if (predicate(lines)) return res();
        waiters.push({ predicate, resolve: () => (predicate(lines) ? res() : rej(new Error(`worker exited early: ${stderr}\n${lines.join('\n')}`))) });
      }),
  };
}

const doneCount = (lines: string[]) => lines.filter((l) => l.startsWith('done ')).length;

describe('worker crash and restart', () => {
  it('converges 10,000 dependents through 4 SIGKILLs at random points: every projection correct, no job lost or applied twice', async () => {
    const db = tc.session.db();
    const kills: string[] = [];

    // 1st kill: right after taking a job's lease, before any work. Only lease expiry saves that job.
    const first = startWorker(['--pause-after-claim-ms', '5000']);
    await first.until((l) => l.some((x) => x.startsWith('claimed ')));
    const stranded = Number(first.lines.find((x) => x.startsWith('claimed '))!.split(' ')[1]);
    first.child.kill('SIGKILL');
    await first.exited;
    kills.push(`after claiming job ${stranded}`);

    // 2nd–4th kills: after a random number of committed pages plus a random delay, so some land
    // in the middle of a page's transaction.
    for (let i = 0; i < 3; i++) {
      const w = startWorker();
      const pages = 1 + Math.floor(Math.random() * 4);
      await w.until((l) => doneCount(l) >= pages);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
      w.child.kill('SIGKILL');
      await w.exited;
      kills.push(`after ${doneCount(w.lines)} pages`);
    }
    const progressBeforeFinal = (db.prepare(`SELECT COUNT(*) AS n FROM projection_ledger`).get() as { n: number }).n;
    expect(progressBeforeFinal).toBeLessThan(DEPENDENTS);

    const last = startWorker();
    await last.until((l) => l.includes('converged'));
    expect(await last.exited).toBe(0);

    // No job lost: every job is DONE, the pages cover every dependent once, each page has its receipt.
    const jobs = db.prepare('SELECT job_id, status, attempts, converged, receipt_seq FROM outbox_job ORDER BY job_id').all() as {
      job_id: number;
      status: string;
      attempts: number;
      converged: number;
      receipt_seq: number | null;
    }[];
    expect(jobs.every((j) => j.status === 'DONE' && j.receipt_seq !== null)).toBe(true);
    expect(jobs.reduce((n, j) => n + j.converged, 0)).toBe(DEPENDENTS);
    expect(jobs).toHaveLength(DEPENDENTS / FAN_OUT);
    expect(jobs.find((j) => j.job_id === stranded)!.attempts).toBeGreaterThanOrEqual(2);
    const receipts = (db.prepare(`SELECT COUNT(*) AS n FROM audit_receipt WHERE action = 'revocation:converge'`).get() as { n: number }).n;
    expect(receipts).toBe(jobs.length);

    // None applied twice: one ledger row per claim, and every projection moved exactly once (version 1).
    const ledger = db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT claim_id) AS claims FROM projection_ledger').get();
    expect(ledger).toEqual({ n: DEPENDENTS, claims: DEPENDENTS });
    const versions = db.prepare('SELECT version, COUNT(*) AS n FROM support_projection GROUP BY version').all();
    expect(versions).toEqual([{ version: 1, n: DEPENDENTS }]);
    const remediations = db.prepare(`SELECT COUNT(*) AS n, COUNT(DISTINCT claim_id) AS claims FROM remediation WHERE status = 'OPEN'`).get();
    expect(remediations).toEqual({ n: DEPENDENTS / 100, claims: DEPENDENTS / 100 });
    expect(db.prepare('SELECT dependents_total, dependents_converged FROM fence_progress').get()).toEqual({ dependents_total: DEPENDENTS, dependents_converged: DEPENDENTS });

    // Every stored projection equals a from-scratch recomputation.
    const now = new Date().toISOString();
    const mismatches: string[] = [];
    for (let i = 0; i < claimIds.length; i += 1000) {
      const states = loadProjectionStates(db, claimIds.slice(i, i + 1000));
      for (const s of states.values()) {
        const fresh = liveProjection(s, now);
        if (!s.stored || s.stored.projection !== fresh.projection || s.stored.reasons !== JSON.stringify(fresh.reasons) || s.pending) mismatches.push(s.claimId);
      }
    }
    expect(mismatches, `kills: ${kills.join('; ')}`).toEqual([]);
  }, 120_000);
});
