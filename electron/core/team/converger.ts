import type { ClientBase } from 'pg';
import type { ServiceContext } from '../context';
import { readCaseMeta } from '../services/caseMeta';
import { claimJobToSign, firstHeldJob, openJobCount, processJob, type JobOutcome } from '../worker/outbox';
import { convergerStanding, DEFAULT_TEAM_LEASE_MS, releaseConvergerLease, renewConvergerLease, takeConvergerLease, type ConvergerLease } from './convergerLease';
import { pushCase } from './publish';

export type ConvergerEvent =
  | { kind: 'leased'; lease: ConvergerLease }
  | { kind: 'claimed'; jobId: number }
  | { kind: 'done'; outcome: JobOutcome; head: number };

export interface ConvergeRun {
  /**
   * 'busy': another worker holds the server lease (named); 'lost': this one's lease was taken over
   * mid-run; 'pending': open jobs remain under a local lease of another worker on this replica (one
   * that died holding it, say), to be taken when that lease expires.
   */
  status: 'converged' | 'busy' | 'lost' | 'pending';
  heldBy: string | null;
  jobs: JobOutcome[];
  openJobs: number;
  /** When 'pending': the local lease that frees first, and whose it is. */
  heldLocally: { owner: string; expiresAt: number } | null;
}

export interface ConvergeOptions {
  /** Lease owner name, unique per worker; also the local outbox lease's owner. */
  holder: string;
  leaseMs?: number;
  fanOut?: number;
  onEvent?: (e: ConvergerEvent) => void;
  /** Test hook: runs after a job is claimed locally, before it is processed. */
  afterClaim?: (jobId: number) => Promise<void>;
}

/**
 * One converger per case, across machines (DESIGN §3.5 on a team server): converges a case replica's open outbox jobs as the case's one converger: takes the server lease,
 * then for each job processes it locally (one transaction, one receipt, as on a lone desktop) and
 * pushes its receipt under the lease before renewing it. The replica must hold the server's head
 * (a push over a newer head is refused: pull first). A lease lost mid-run stops the run; the job
 * processed locally but not pushed is refused by the server and stays this replica's to reconcile.
 */
export async function convergeCase(ctx: ServiceContext, client: ClientBase, options: ConvergeOptions): Promise<ConvergeRun> {
  const { caseId } = readCaseMeta(ctx.db);
  const leaseMs = options.leaseMs ?? DEFAULT_TEAM_LEASE_MS;
  const lease = await takeConvergerLease(client, caseId, options.holder, leaseMs);
  if (!lease) {
    const { holder } = await convergerStanding(client, caseId);
    return { status: 'busy', heldBy: holder, jobs: [], openJobs: openJobCount(ctx.db), heldLocally: null };
  }
  options.onEvent?.({ kind: 'leased', lease });
  const jobs: JobOutcome[] = [];
  const workerOptions = { owner: options.holder, leaseMs, ...(options.fanOut ? { fanOut: options.fanOut } : {}) };
  try {
    // Anything this replica has not pushed yet goes first, so the convergence receipts extend the server's head.
    await pushCase(ctx.db, client, { lease });
    for (;;) {
      const job = claimJobToSign(ctx, workerOptions);
      if (!job) break;
      options.onEvent?.({ kind: 'claimed', jobId: job.job_id });
      await options.afterClaim?.(job.job_id);
      if (!(await renewConvergerLease(client, lease, leaseMs))) {
        return { status: 'lost', heldBy: (await convergerStanding(client, caseId)).holder, jobs, openJobs: openJobCount(ctx.db), heldLocally: null };
      }
      const outcome = processJob(ctx, job, workerOptions);
      const pushed = await pushCase(ctx.db, client, { lease });
      jobs.push(outcome);
      options.onEvent?.({ kind: 'done', outcome, head: pushed.head.seq });
    }
  } catch (err) {
    // A push refused because the lease moved on (the server's trigger) is a lost lease, not a fault.
    const standing = await convergerStanding(client, caseId);
    if (standing.holder !== lease.holder) return { status: 'lost', heldBy: standing.holder, jobs, openJobs: openJobCount(ctx.db), heldLocally: null };
    throw err;
  } finally {
    await releaseConvergerLease(client, lease);
  }
  const open = openJobCount(ctx.db);
  if (open === 0) return { status: 'converged', heldBy: options.holder, jobs, openJobs: 0, heldLocally: null };
  return { status: 'pending', heldBy: options.holder, jobs, openJobs: open, heldLocally: firstHeldJob(ctx.db) };
}
