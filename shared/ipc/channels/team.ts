import { z } from 'zod';

/**
 * The open case's place on a team server (issue 15), for the window: whether it is a replica, where
 * it stands against the server, who else is working on it, and the conflicts waiting for the
 * reviewer in this window. Read through the reviewer's own PostgreSQL role, so the server shows
 * them what its row-level security lets them see.
 */
export const TeamConflict = z.object({
  conflictId: z.number().int(),
  actor: z.string(),
  channel: z.string(),
  /** The request as it was made (JSON), or null when it was not kept (it carried a passphrase). */
  request: z.string().nullable(),
  reason: z.string(),
  madeAt: z.string(),
  foundAt: z.string(),
});
export type TeamConflict = z.infer<typeof TeamConflict>;

export const TeamStatus = z.object({
  /** Whether this case file is a replica of a team case (published or cloned). */
  replica: z.boolean(),
  /** The server, as postgres://host:port/database (the window connects as the reviewer's own role). */
  server: z.string().nullable(),
  role: z.string().nullable(),
  /** null when connected; else why the server could not be read (the rest is then this file's view). */
  problem: z.string().nullable(),
  localHead: z.number().int(),
  serverHead: z.number().int().nullable(),
  /** Receipts of this file the server does not hold yet (provisional actions). */
  ahead: z.number().int(),
  /** Receipts on the server this file does not hold yet. */
  behind: z.number().int(),
  /** This file's own actions were made on a head the server has moved past: `team sync` rebuilds it. */
  diverged: z.boolean(),
  /** When this file last agreed with the server (its last pull or push). */
  lastSync: z.string().nullable(),
  converger: z.string().nullable(),
  /** Revocation jobs open in this file's outbox: the case's one converger runs them (team:converge). */
  openJobs: z.number().int(),
  /** Reviewers with receipts on the server's log, and when their latest was made. */
  others: z.array(z.object({ actorId: z.string(), lastAt: z.string(), receipts: z.number().int() })),
  conflicts: z.array(TeamConflict),
});
export type TeamStatus = z.infer<typeof TeamStatus>;

/** What a converge run from this window did (team:converge). */
export const TeamConvergeResult = z.object({
  /** 'busy': another worker holds the lease; 'lost': it was taken over mid-run; 'pending': jobs remain under another local lease. */
  status: z.enum(['converged', 'busy', 'lost', 'pending']),
  heldBy: z.string().nullable(),
  converged: z.number().int(),
  openJobs: z.number().int(),
  /** When 'pending': the lease on this machine that frees first (a worker still at it, or one that stopped holding it). */
  heldLocally: z.object({ owner: z.string(), expiresAt: z.number().int() }).nullable(),
});
export type TeamConvergeResult = z.infer<typeof TeamConvergeResult>;

const ConflictRef = z.object({ conflictId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }).strict();

export const teamChannels = {
  'team:status': { request: z.object({}).strict(), response: TeamStatus },
  /** Pulls what the server holds (fast-forward, verified before it is kept), then pushes this file's new receipts. */
  'team:sync': {
    request: z.object({}).strict(),
    response: z.object({ pulled: z.number().int(), pushed: z.number().int(), head: z.number().int() }),
  },
  /**
   * Runs the case's open revocation jobs from this window as the case's one converger: pulls, takes
   * the server's converger lease (or says who holds it), converges each job here and pushes its
   * receipt under the lease.
   */
  'team:converge': { request: z.object({}).strict(), response: TeamConvergeResult },
  /**
   * Drops one of the reviewer's conflicts: they redid it (the window sends the recorded request
   * through its channel again) or decided against it.
   */
  'team:dropConflict': { request: ConflictRef, response: z.object({ dropped: z.literal(true) }) },
};
