import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { TeamConvergeResult, TeamStatus } from '../../../shared/ipc/channels/team';
import { chainHead } from '../audit/receiptViews';
import type { VerificationMarks } from '../audit/verifyMarks';
import type { ServiceContext } from '../context';
import { conflict, notFound, WorkbenchError } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { isCapturing, lastSynced, replicaServer, serverSeq } from '../store/replicaRows';
import { openJobCount } from '../worker/outbox';
import { listConflicts } from './conflicts';
import { convergeCase } from './converger';
import { convergerStanding } from './convergerLease';
import { holdsHead, pushCase } from './publish';
import { DivergedReplica, pullCase } from './replica';
import { readReceipts, teamHead, teamRoleName } from './teamStore';

/**
 * The window's view of the open case on its team server (issue 15.4). The window connects as the
 * reviewer's own PostgreSQL role (the password from PGPASSWORD or ~/.pgpass, as any libpq client
 * finds it), so the server answers within their row-level security.
 */

/** A server address as a replica keeps it: postgres://host:port/database, without user or password. */
export function serverLocation(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString();
}

const CONNECT_TIMEOUT_MS = 3_000;

async function asReviewer<T>(server: string, actorId: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const u = new URL(server);
  u.username = teamRoleName(actorId);
  const client = new pg.Client({ connectionString: u.toString(), application_name: 'erwb-window', connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new WorkbenchError('STORAGE', `cannot reach the team server ${server} as ${u.username}: ${(err as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function teamStatus(ctx: ServiceContext): Promise<TeamStatus> {
  const { db } = ctx;
  const local = chainHead(db);
  const actorId = ctx.actor.actorId;
  const conflicts = listConflicts(db, actorId).map((c) => ({
    conflictId: c.conflict_id, actor: c.actor, channel: c.channel, request: c.request, reason: c.reason, madeAt: c.made_at, foundAt: c.found_at,
  }));
  const base: TeamStatus = {
    replica: isCapturing(db), server: replicaServer(db), role: null, problem: null, localHead: local.seq, serverHead: null,
    ahead: 0, behind: 0, diverged: false, lastSync: lastSynced(db), converger: null, openJobs: openJobCount(db), others: [], conflicts,
  };
  if (!base.replica) return base;
  if (!base.server) return { ...base, problem: 'this case file does not name its team server yet: sync it once with npm run team -- sync' };
  const { caseId } = readCaseMeta(db);
  try {
    return await asReviewer(base.server, actorId, async (client) => {
      const head = await teamHead(client, caseId);
      if (!head) return { ...base, role: teamRoleName(actorId), problem: `case ${caseId} is not on the server for ${teamRoleName(actorId)} (not a member?)` };
      const { holder } = await convergerStanding(client, caseId);
      const { rows } = await client.query<{ actor: string; last_at: string; n: number }>(
        'SELECT actor, max(at) AS last_at, count(*)::int AS n FROM erwb.team_receipt WHERE case_id = $1 GROUP BY actor ORDER BY max(at) DESC',
        [caseId],
      );
      const standing = holdsHead(db, head)
        ? { ahead: local.seq - head.seq, behind: 0, diverged: false }
        : (await readReceipts(client, caseId, local.seq - 1, 1))[0]?.hash === local.hash
          ? { ahead: 0, behind: head.seq - local.seq, diverged: false }
          : { ahead: local.seq - serverSeq(db), behind: head.seq - serverSeq(db), diverged: true };
      return {
        ...base, ...standing, role: teamRoleName(actorId), serverHead: head.seq, converger: holder,
        others: rows.filter((r) => r.actor !== actorId).map((r) => ({ actorId: r.actor, lastAt: r.last_at, receipts: r.n })),
      };
    });
  } catch (err) {
    if (!(err instanceof WorkbenchError)) throw err;
    return { ...base, role: teamRoleName(actorId), problem: err.message };
  }
}

/** The open case's team server, or why it has none. */
function serverOf(ctx: ServiceContext, channel: string): string {
  const server = isCapturing(ctx.db) ? replicaServer(ctx.db) : null;
  if (!server) throw notFound(`${channel}: this case is not on a team server (publish it with npm run team -- publish)`);
  return server;
}

/** Pulls what the server holds (fast-forward); a replica whose own actions the server moved past is told how to sync it. */
async function pullOpenCase(ctx: ServiceContext, client: pg.Client, server: string, marks: VerificationMarks): Promise<number> {
  try {
    return (await pullCase(ctx.db, client, { marks })).pulled;
  } catch (err) {
    if (!(err instanceof DivergedReplica)) throw err;
    throw conflict(`${err.message}. Close the case, then run npm run team -- sync <case-file> ${server} --as ${ctx.actor.actorId}: it takes your actions again on the server's head`);
  }
}

/** Pulls (fast-forward, verified) then pushes, on the open case. */
export async function syncOpenCase(ctx: ServiceContext, marks: VerificationMarks): Promise<{ pulled: number; pushed: number; head: number }> {
  const server = serverOf(ctx, 'team:sync');
  return asReviewer(server, ctx.actor.actorId, async (client) => {
    const pulled = await pullOpenCase(ctx, client, server, marks);
    const pushed = await pushCase(ctx.db, client);
    return { pulled, pushed: pushed.pushed, head: pushed.head.seq };
  });
}

/**
 * This window as the case's one converger (issue 15.3): brought up to the server's head, then its
 * open revocation jobs converged under the server's lease, each receipt pushed as it is written.
 * The lease holder is named after the reviewer, so the other windows show who converges.
 */
export async function convergeOpenCase(ctx: ServiceContext, marks: VerificationMarks): Promise<TeamConvergeResult> {
  const server = serverOf(ctx, 'team:converge');
  return asReviewer(server, ctx.actor.actorId, async (client) => {
    await pullOpenCase(ctx, client, server, marks);
    const run = await convergeCase(ctx, client, { holder: `window:${ctx.actor.actorId}:${randomUUID().slice(0, 8)}` });
    return { status: run.status, heldBy: run.heldBy, converged: run.jobs.length, openJobs: run.openJobs, heldLocally: run.heldLocally };
  });
}
