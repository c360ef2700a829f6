import { randomUUID } from 'node:crypto';
import { WorkbenchError } from '../errors';
import type { Session } from '../session';
import { claimJobToSign, processJob, type WorkerOptions } from './outbox';

/**
 * The background worker of a running workbench (Electron main process or the loopback host).
 *
 * It runs on the host's own event loop, one job (one page of at most fanOut dependents, one
 * transaction) per turn, yielding to the event loop between pages while there is work and
 * polling with a timer when there is none. Why not a worker_threads Worker: it would need a second
 * connection, so its write transactions would contend with the UI's for SQLite's single writer
 * lock, and a second bundle entry for Electron; a page here is tens of milliseconds, so an IPC
 * call waits at most one page. The lease still matters: the CLI, the crash test and a second
 * workbench on the same file are other workers.
 */
export interface WorkerLoopState {
  mode: 'loop' | 'manual';
  running: boolean;
  jobsProcessed: number;
  lastRunAt: string | null;
  lastError: string | null;
}

const state: WorkerLoopState = { mode: 'manual', running: false, jobsProcessed: 0, lastRunAt: null, lastError: null };

/** What revocation:status reports about the background worker of this process. */
export const workerLoopStatus = (): WorkerLoopState => ({ ...state });

export interface WorkerLoopOptions extends Partial<WorkerOptions> {
  /** Poll interval while there is nothing to do. */
  idleMs?: number;
  /** Wait after an error before trying again (a missing signing key, a locked file). */
  errorBackoffMs?: number;
}

export function startWorkerLoop(session: Session, options: WorkerLoopOptions = {}): { stop: () => void } {
  const opts: WorkerOptions = { owner: options.owner ?? `loop:${process.pid}:${randomUUID().slice(0, 8)}`, ...options };
  const idleMs = options.idleMs ?? 1000;
  const backoffMs = options.errorBackoffMs ?? 5000;
  // One timer at a time: each tick schedules the next, and stop() clears it (ticks are synchronous,
  // so stop() never runs inside one).
  let timer: NodeJS.Timeout | undefined;
  state.mode = 'loop';
  state.running = true;

  const schedule = (delay: number) => {
    timer = setTimeout(tick, delay);
  };
  function tick(): void {
    if (!session.casePath) return schedule(idleMs);
    try {
      const ctx = session.workerContext();
      const job = claimJobToSign(ctx, opts);
      if (!job) return schedule(idleMs);
      const outcome = processJob(ctx, job, opts);
      // Stryker disable next-line ConditionalExpression: a lease is lost only to another process between these two calls (crash.test.ts, outside the mutation suite)
      if (!outcome.lost) state.jobsProcessed += 1;
      state.lastRunAt = ctx.now();
      state.lastError = null;
      schedule(0);
    } catch (err) {
      if (err instanceof WorkbenchError && err.code === 'LOCKED') {
        // Nobody is unlocked to sign convergence receipts: wait quietly until someone is.
        state.lastError = err.message;
        return schedule(idleMs);
      }
      // The job keeps its lease and is taken again once it expires; say why in revocation:status.
      state.lastError = (err as Error).message;
      session.log(`revocation worker: ${(err as Error).message}`);
      schedule(backoffMs);
    }
  }
  schedule(0);
  return {
    stop: () => {
      state.running = false;
      clearTimeout(timer);
    },
  };
}
