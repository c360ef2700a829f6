import { z } from 'zod';
import { FENCING_STATES, LifecycleState } from '../../domain/enums';

/** One revoke, supersede, quarantine or dispute and how far its consequences have converged (DESIGN §3.5, §4 metrics). */
export const RevocationView = z.object({
  fenceId: z.number().int(),
  revisionId: z.string(),
  title: z.string(),
  cause: z.enum(FENCING_STATES),
  fromState: LifecycleState.nullable(),
  reason: z.string(),
  /** Who revoked or superseded it: they may not resolve the remediations it opens alone. */
  actor: z.string(),
  supportingRef: z.string().nullable(),
  /** When the fence committed: dependents read as pending revalidation from this instant. */
  fencedAt: z.string(),
  /** Claims found resting on it (and on revisions derived from it); null until the worker counted them. */
  dependentsTotal: z.number().int().nullable(),
  dependentsConverged: z.number().int(),
  /** Revisions derived from it (PROV wasDerivedFrom) that were fenced in turn. */
  derivedFences: z.number().int(),
  openJobs: z.number().int(),
  jobsDone: z.number().int(),
  /** Fence commit → the worker first took its job. */
  pickupDelayMs: z.number().nullable(),
  /** Fence commit → the last job of the fence tree finished (null while open). */
  convergenceMs: z.number().nullable(),
  convergedAt: z.string().nullable(),
});
export type RevocationView = z.infer<typeof RevocationView>;

export const WorkerLoopView = z.object({
  /** 'loop': the host process runs the worker in the background; 'manual': only revocation:runWorker. */
  mode: z.enum(['loop', 'manual']),
  running: z.boolean(),
  jobsProcessed: z.number().int(),
  lastRunAt: z.string().nullable(),
  lastError: z.string().nullable(),
});

export const RevocationStatus = z.object({
  /** Open outbox jobs of revocations you may see. */
  openJobs: z.number().int(),
  /** Of those, held under a live lease by some worker right now. */
  leasedJobs: z.number().int(),
  /** Claims you may see whose evidence was fenced and not yet recomputed. */
  pendingClaims: z.number().int(),
  /** Open remediations on claims you may see. */
  openRemediations: z.number().int(),
  worker: WorkerLoopView,
  /** Latest first. */
  revocations: z.array(RevocationView),
});
export type RevocationStatus = z.infer<typeof RevocationStatus>;

export const JobOutcomeView = z.object({
  jobId: z.number().int(),
  fenceId: z.number().int(),
  phase: z.enum(['claims', 'derived']),
  converged: z.number().int(),
  derivedFences: z.number().int(),
  remediationsOpened: z.array(z.number().int()),
  nextJobId: z.number().int().nullable(),
  lost: z.boolean(),
});

export const revocationChannels = {
  'revocation:status': {
    request: z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict(),
    response: RevocationStatus,
  },
  /** Processes up to maxJobs outbox jobs now, in this process (tests, the CLI, the UI's "run now"). */
  'revocation:runWorker': {
    request: z.object({ maxJobs: z.number().int().min(1).max(10_000).default(100) }).strict(),
    response: z.object({ jobs: z.array(JobOutcomeView), status: RevocationStatus }),
  },
} as const;
