import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { startHost } from './server';
import { verifyCaseFile } from '../core/audit/verifyFile';
import { createReviewCase, type ReviewCase } from '../testing/reviewCase';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { TEST_PASSPHRASE, testSession } from '../testing/testCase';
import { IN_MUTATION_RUN } from '../testing/mutationRun';

/**
 * The safety rules are wired where they apply, not registered by whichever module an entry point
 * happened to import (issue 8): the same quarantine and dispute, made through each entry point on
 * a copy of one case, writes the same fences and jobs, converges through the worker to the same
 * projections and remediations, and shows the same gate blockers and a verifying chain.
 * Electron's ipcMain cannot run here (no binary); it dispatches into the same handler table,
 * which the last test reads from its source.
 */
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const MOVES = (a: string, b: string) =>
  [
    { revisionId: a, to: 'QUARANTINED', reason: 'feed compromised' },
    { revisionId: b, to: 'DISPUTED', reason: 'inventory disagrees' },
  ] as const;

let rc: ReviewCase;
let userData: string;
let base: string;
let ids: { a: string; b: string };

beforeAll(async () => {
  rc = await createReviewCase();
  const a = await rc.evidence('ev-a');
  const b = await rc.evidence('ev-b');
  await rc.claim('cl-a');
  await rc.bind('cl-a', a);
  await rc.claim('cl-b');
  await rc.bind('cl-b', b);
  rc.as('bob');
  const d = await rc.call('decision:propose', { claimId: 'cl-a', verdict: 'SUPPORTED', rationale: 'EDR shows it' });
  rc.as('carol');
  await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
  ids = { a, b };
  userData = join(rc.dir, 'user');
  base = rc.casePath;
  rc.session.close();
}, 60_000);
afterAll(() => rc.cleanup());

function copyCase(name: string): string {
  const path = join(rc.dir, `${name}.case.sqlite`);
  copyFileSync(base, path);
  return path;
}

/** What the safety rules wrote, without times and ids that differ between runs. */
function outcome(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const rows = (sql: string) => db.prepare(sql).all();
    return {
      fences: rows('SELECT revision_id, cause, from_state FROM revocation_fence ORDER BY revision_id, cause'),
      jobs: rows('SELECT status, COUNT(*) AS n FROM outbox_job GROUP BY status ORDER BY status'),
      projections: rows('SELECT claim_id, projection FROM support_projection ORDER BY claim_id'),
      remediations: rows('SELECT claim_id, status FROM remediation ORDER BY claim_id'),
      receipts: rows('SELECT action, COUNT(*) AS n FROM audit_receipt GROUP BY action ORDER BY action'),
    };
  } finally {
    db.close();
  }
}

async function gateOf(path: string) {
  const session = testSession({ userDataDir: userData }).seat();
  try {
    await dispatch(handlers, session, 'case:open', { path });
    await dispatch(handlers, session, 'actor:unlock', { actorId: 'admin', passphrase: TEST_PASSPHRASE });
    const gate = await dispatch(handlers, session, 'case:gate', {});
    if (!gate.ok) throw new Error(gate.error.message);
    return (gate.value as ResponseOf<'case:gate'>).blockers.map((x) => `${x.check}: ${x.kind} ${x.target}`).sort();
  } finally {
    session.close();
  }
}

describe('every entry point gets the same fences and checks', () => {
  const results: Record<string, { outcome: ReturnType<typeof outcome>; gate: string[]; verify: number }> = {};

  it('in process, through the handler table (what ipcMain and the bench call)', async () => {
    const path = copyCase('inproc');
    const session = testSession({ userDataDir: userData }).seat();
    const call = async <C extends Channel>(channel: C, request: RequestOf<C>) => {
      const env = await dispatch(handlers, session, channel, request);
      if (!env.ok) throw new Error(`${channel}: ${env.error.message}`);
    };
    await call('case:open', { path });
    await call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    for (const move of MOVES(ids.a, ids.b)) await call('evidence:transition', move);
    await call('revocation:runWorker', { maxJobs: 50 });
    session.close();
    results.inproc = { outcome: outcome(path), gate: await gateOf(path), verify: (await verifyCaseFile(path)).exitCode };
    expect(results.inproc.outcome.fences).toEqual([
      { revision_id: ids.a, cause: 'QUARANTINED', from_state: 'VALIDATED' },
      { revision_id: ids.b, cause: 'DISPUTED', from_state: 'VALIDATED' },
    ]);
    expect(results.inproc.outcome.remediations).toEqual([{ claim_id: 'cl-a', status: 'OPEN' }]);
    expect(results.inproc.verify).toBe(0);
  });

  it.skipIf(IN_MUTATION_RUN)('through the CLI and the worker process', async () => {
    const path = copyCase('cli');
    // The passphrase reaches the CLI as scripts pass it, in a file (or on a descriptor), never in argv.
    const secret = join(userData, 'bob.passphrase');
    writeFileSync(secret, `${TEST_PASSPHRASE}\n`, { mode: 0o600 });
    const env = { ...process.env, ERWB_USER_DATA: userData };
    for (const move of MOVES(ids.a, ids.b)) {
      execFileSync(TSX, ['electron/host/cli.ts', 'call', path, 'evidence:transition', JSON.stringify(move), '--as', 'bob', '--passphrase-file', secret], { env, stdio: 'pipe' });
    }
    execFileSync(TSX, ['electron/core/worker/cli.ts', path, '--as', 'bob', '--user-data', userData, '--passphrase-file', secret], { env, stdio: 'pipe' });
    results.cli = { outcome: outcome(path), gate: await gateOf(path), verify: (await verifyCaseFile(path)).exitCode };
    expect(results.cli).toEqual(results.inproc);
  });

  it('through the loopback host', async () => {
    const path = copyCase('host');
    const session = testSession({ userDataDir: userData });
    const host = await startHost({ session, handlers });
    const post = async (channel: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${host.port}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-workbench-token': host.token },
        body: JSON.stringify(body),
      });
      const env = (await res.json()) as { ok: boolean; error?: { message: string } };
      if (!env.ok) throw new Error(`${channel}: ${env.error?.message}`);
    };
    try {
      await post('case:open', { path });
      await post('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
      for (const move of MOVES(ids.a, ids.b)) await post('evidence:transition', move);
      await post('revocation:runWorker', { maxJobs: 50 });
    } finally {
      await host.close();
      session.close();
    }
    results.host = { outcome: outcome(path), gate: await gateOf(path), verify: (await verifyCaseFile(path)).exitCode };
    expect(results.host).toEqual(results.inproc);
  });

  it('Electron registers the same handler table through the same dispatch', () => {
    const ipc = readFileSync(join(process.cwd(), 'electron/main/ipc.ts'), 'utf8');
    expect(ipc).toContain("import { handlers } from '../core/handlers';");
    // Through its own seat: the reviewer acting is the one unlocked in this window (issue 9.4).
    expect(ipc).toMatch(/return dispatch\(handlers, session\.seat\(`window:\$\{event\.sender\.id\}`\), channel, request\);/);
  });

  it('no module switches a rule on by a bare side-effect import', () => {
    const files = execFileSync('git', ['ls-files', 'electron', 'shared'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'));
    const bare = files.filter((f) => /^import '\.\.?\//m.test(readFileSync(f, 'utf8')));
    expect(bare).toEqual([]);
  });
});
