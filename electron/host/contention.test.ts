import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../testing/reviewCase';
import { verifyCaseFile } from '../core/audit/verifyFile';

/**
 * Issue 12.1: two processes on one case file. Service transactions read before they write, so a
 * deferred transaction failed at its first write whenever the other process had written, with
 * INTERNAL "database is locked" and no waiting (35 of 280 writes). Writes now take the lock up
 * front and wait for it.
 */
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

function writer(actor: string, prefix: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['electron/testing/writerProcess.ts', rc.casePath, join(rc.dir, 'user'), actor, prefix, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`writer ${prefix} exited ${code}: ${err}`))));
  });
}

describe('two writer processes and the workbench on one case file', () => {
  it('every write waits its turn: none fails, all are receipted, the chain verifies', async () => {
    const PER = 60;
    const others = Promise.all([writer('alice', 'proc-a', PER), writer('bob', 'proc-b', PER)]);
    const mine: string[] = [];
    // Meanwhile this process writes too, as the app would.
    rc.as('carol');
    for (let i = 0; i < PER; i++) {
      const env = await rc.raw('claim:create', { claimId: `app-${i}`, statement: `written in the app (${i})`, tenant: 'acme', classification: 'internal' });
      mine.push(env.ok ? 'ok' : `error ${env.error.code} ${env.error.message}`);
      await new Promise((r) => setImmediate(r));
    }
    const [a, b] = await others;
    const failures = [...a!, ...b!, ...mine].filter((l) => l.startsWith('error'));
    process.stdout.write(`contention: ${3 * PER} writes from 3 processes' worth of writers, ${failures.length} failed\n`);
    expect(failures).toEqual([]);
    const db = new Database(rc.casePath, { readonly: true });
    const made = db.prepare(`SELECT COUNT(*) FROM claim WHERE claim_id LIKE 'proc-%' OR claim_id LIKE 'app-%'`).pluck().get();
    db.close();
    expect(made).toBe(3 * PER);
    rc.session.close();
    expect((await verifyCaseFile(rc.casePath)).exitCode).toBe(0);
  }, 120_000);
});
