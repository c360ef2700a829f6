import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chainHead } from '../core/audit/receiptViews';
import { marksOf } from '../core/audit/verifyMarks';
import { invalid, WorkbenchError } from '../core/errors';
import { defaultUserDataDir } from '../core/paths';
import { readPassphrase } from '../core/passphraseInput';
import { Session } from '../core/session';
import { convergeCase } from '../core/team/converger';
import { convergerStanding, DEFAULT_TEAM_LEASE_MS } from '../core/team/convergerLease';
import { openJobCount } from '../core/worker/outbox';
import { readCaseMeta } from '../core/services/caseMeta';
import { openCaseFile, openReader, schemaVersion, writeTransaction, type CaseDb } from '../core/store/caseFile';
import { noteServer } from '../core/store/replicaRows';
import { serverLocation } from '../core/team/teamView';
import { LATEST_VERSION } from '../core/store/migrations';
import { holdsHead, publishCase, pushCase, type PushProgress } from '../core/team/publish';
import { dropConflict, listConflicts } from '../core/team/conflicts';
import { syncCase } from '../core/team/reconcile';
import { cloneCase, pullCase } from '../core/team/replica';
import { initTeamStore, teamHead, teamRoleName } from '../core/team/teamStore';
import { listActors } from '../core/store/actorRows';

export const TEAM_USAGE = `usage:
  npm run team -- init <postgres-url>
  npm run team -- publish <case-file> <postgres-url>
  npm run team -- push <case-file> <postgres-url>
  npm run team -- pull <case-file> <postgres-url> [--user-data <dir>]
  npm run team -- sync <case-file> <postgres-url> --as <reviewer> [--user-data <dir>]
      [--passphrase-fd <n> | --passphrase-file <path>]
  npm run team -- conflicts <case-file> [--as <reviewer>]
  npm run team -- drop <case-file> <conflict-id> --as <reviewer>
  npm run team -- clone <postgres-url> <case-id> <new-case-file> [--user-data <dir>]
  npm run team -- status <case-file> <postgres-url>
  npm run team -- worker <case-file> <postgres-url> --as <reviewer> [--wait] [--lease-ms <ms>]
      [--user-data <dir>] [--passphrase-fd <n> | --passphrase-file <path>]

init creates (or brings up to date) the team schema on an existing PostgreSQL database: the
receipt log, members and row-level security policies. Connect as a role that may create schemas
and roles (the database owner with CREATEROLE, or a superuser).
publish verifies the case file, then puts it on the server: the case, one PostgreSQL login role
per reviewer (erwb_<name>_<tag>, no password: set one with ALTER ROLE … PASSWORD), their clearance
as row-level security, and every receipt. push sends the receipts the server does not have yet,
in batches that each commit (a push cut off resumes where it stopped), with the rows its
receipts wrote. pull brings the case file up to the server: the other reviewers' receipts and
rows, applied and verified whole before anything is kept. sync pulls, then pushes; when the server
moved past actions taken here, it rebuilds the file from the server's head and takes --as's
actions again there (re-signed); one no longer valid becomes a conflict for its author, listed by
conflicts and dropped by drop (redo it in the workbench). Close the case in the workbench first.
clone makes a new case file from the server the same way. A replica holds the whole case: cloning and pulling
need a clearance covering all of it. status compares the case
file's chain head with the server's, and names the case's converger.
worker converges the case file's open revocation jobs as the case's one converger: it takes the
case's lease on the server (refused while another worker holds it; --wait waits for it), signs
each job's receipt as --as (passphrase read as the workbench CLI reads it) and pushes it under the
lease. The case file must hold the server's head.
status only reads the case file. Exit 0 on success, 1 on a refusal (its reason on stderr), 2 on bad usage.`;

interface Out {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

/** Opens a case file read-only at this build's schema (the workbench migrates older files on open). */
function openCase(path: string): CaseDb {
  const db = openReader(path);
  const version = schemaVersion(db);
  if (version !== LATEST_VERSION) {
    db.close();
    throw new WorkbenchError('CONFLICT', `${path} is at schema version ${version}, this build's is ${LATEST_VERSION}; open it once in the workbench (which migrates it), then try again`);
  }
  return db;
}

async function withServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'erwb-team' });
  // A connection the server drops makes the client emit 'error' besides rejecting the query in
  // flight; the rejection is what reaches the user, so the event must not end the process first.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new WorkbenchError('STORAGE', `cannot reach the team server: ${(err as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const progressLine = (p: PushProgress) => `pushed ${p.pushed} of ${p.total} receipts (head seq ${p.head.seq})`;

const WORKER_OPTIONS = {
  as: { type: 'string' },
  wait: { type: 'boolean' },
  'lease-ms': { type: 'string' },
  'user-data': { type: 'string' },
  'passphrase-fd': { type: 'string' },
  'passphrase-file': { type: 'string' },
  // Test hook: holds the lease after claiming a job, so a test can kill the worker there.
  'pause-after-claim-ms': { type: 'string' },
} as const;

type WorkerValues = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof WORKER_OPTIONS }>>['values'];

const IDENTITY = ['as', 'user-data', 'passphrase-fd', 'passphrase-file'] as const;

/** This user's workbench data (keys, verification marks): --user-data, else the default folder. */
const userDataOf = (values: WorkerValues): string => values['user-data'] ?? defaultUserDataDir();

const PULL_VERIFIED = {
  changes: 'verified: what changed since this machine last verified the file',
  whole: 'verified: the whole file',
  nothing: 'already at the server\'s head',
} as const;

/** Each command's positional arguments, the options it takes, and whether it signs (needs --as). */
const COMMANDS: Record<string, { args: number; options: readonly string[]; signs?: boolean }> = {
  init: { args: 1, options: [] },
  publish: { args: 2, options: [] },
  push: { args: 2, options: [] },
  pull: { args: 2, options: ['user-data'] },
  status: { args: 2, options: [] },
  clone: { args: 3, options: ['user-data'] },
  sync: { args: 2, options: IDENTITY, signs: true },
  worker: { args: 2, options: [...IDENTITY, 'wait', 'lease-ms', 'pause-after-claim-ms'], signs: true },
  conflicts: { args: 1, options: ['as'] },
  drop: { args: 2, options: ['as'], signs: true },
};

export async function runTeamCommand(args: string[], out: Out): Promise<number> {
  let positionals: string[];
  let values: WorkerValues;
  try {
    ({ positionals, values } = parseArgs({ args, allowPositionals: true, options: WORKER_OPTIONS }));
  } catch (err) {
    out.stderr(`team: ${(err as Error).message}\n${TEAM_USAGE}\n`);
    return 2;
  }
  const [command, ...rest] = positionals;
  const spec = command === undefined ? undefined : COMMANDS[command];
  if (!command || !spec || rest.length !== spec.args || Object.keys(values).some((o) => !spec.options.includes(o)) || (spec.signs && !values.as)) {
    out.stderr(`${TEAM_USAGE}\n`);
    return 2;
  }
  try {
    if (command === 'init') {
      const { from, to } = await withServer(rest[0]!, initTeamStore);
      out.stdout(from === to ? `team schema already at version ${to}\n` : `team schema at version ${to} (was ${from})\n`);
      return 0;
    }
    if (command === 'conflicts' || command === 'drop') return conflictsCommand(command, rest, values.as, out);
    if (command === 'clone') {
      const [url, caseId, casePath] = rest as [string, string, string];
      const done = await withServer(url, (client) => cloneCase(client, caseId, resolve(casePath), { marks: marksOf(userDataOf(values)) }));
      rememberServer(resolve(casePath), url);
      out.stdout(`cloned case ${caseId} into ${casePath}: ${done.pulled} receipts, verified (head seq ${done.head})\n`);
      return 0;
    }
    const [casePath, url] = rest as [string, string];
    if (command === 'worker') return await runWorker(casePath, url, values, out);
    if (command === 'sync') return await runSync(casePath, url, values, out);
    // Pushing and pulling write to the case file (what was sent, what arrived); status only reads it.
    const db = command === 'status' ? openCase(casePath) : openCaseFile(resolve(casePath));
    try {
      const onProgress = (p: PushProgress) => out.stderr(`${progressLine(p)}\n`);
      if (command !== 'status') writeTransaction(db, () => noteServer(db, serverLocation(url)));
      if (command === 'pull') {
        const pulled = await withServer(url, (client) => pullCase(db, client, { marks: marksOf(userDataOf(values)) }));
        out.stdout(`pulled ${pulled.pulled} receipts, ${PULL_VERIFIED[pulled.verified]} (head seq ${pulled.head})\n`);
        return 0;
      }
      if (command === 'publish' || command === 'push') {
        const done = await withServer(url, (client) => (command === 'publish' ? publishCase(db, client, { onProgress }) : pushCase(db, client, { onProgress })));
        out.stdout(`${progressLine(done)}\n`);
        if (command === 'publish') {
          const roles = listActors(db).map((a) => `  ${a.actorId}: ${teamRoleName(a.actorId)}`);
          out.stdout(`reviewers' PostgreSQL roles:\n${roles.join('\n')}\n`);
        }
        return 0;
      }
      const { caseId } = readCaseMeta(db);
      const local = chainHead(db);
      const [server, converger] = await withServer(url, async (client) => [await teamHead(client, caseId), await convergerStanding(client, caseId)] as const);
      if (!server) {
        out.stdout(`case ${caseId} is not on this server (local head seq ${local.seq})\n`);
        return 0;
      }
      const relation =
        server.seq === local.seq && server.hash === local.hash
          ? 'in step'
          : holdsHead(db, server)
            ? `ahead of the server by ${local.seq - server.seq} receipts`
            : `behind: the server holds receipts up to seq ${server.seq} that this file does not`;
      out.stdout(`case ${caseId}: local head seq ${local.seq}, server head seq ${server.seq}; ${relation}\n`);
      const who = converger.holder ? `${converger.holder} (lease until ${converger.expiresAt!.toISOString()})` : 'nobody';
      out.stdout(`converger: ${who}; ${openJobCount(db)} revocation jobs open in this file\n`);
      return 0;
    } finally {
      db.close();
    }
  } catch (err) {
    // Core errors name their command already (team push: …); say it once.
    out.stderr(`team ${command}: ${(err as Error).message.replace(/^team [a-z]+: /, '')}\n`);
    return 1;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `team worker`: this case file's one converger on the server, signing as --as. */
async function runWorker(casePath: string, url: string, values: WorkerValues, out: Out): Promise<number> {
  const actorId = values.as!;
  const leaseMs = values['lease-ms'] ? Number(values['lease-ms']) : DEFAULT_TEAM_LEASE_MS;
  if (!Number.isInteger(leaseMs) || leaseMs < 100) throw invalid(`--lease-ms: expected a whole number of milliseconds, at least 100; got ${values['lease-ms']}`);
  const pause = Number(values['pause-after-claim-ms'] ?? 0);
  const session = new Session({ userDataDir: userDataOf(values), log: (l) => out.stderr(`${l}\n`) });
  try {
    session.open(resolve(casePath));
    const seat = session.seat('team-worker');
    seat.unlock(actorId, await readPassphrase(actorId, { fd: values['passphrase-fd'], file: values['passphrase-file'] }));
    const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    return await withServer(url, async (client) => {
      for (;;) {
        const run = await convergeCase(seat.context(), client, {
          holder,
          leaseMs,
          onEvent: (e) =>
            out.stdout(
              e.kind === 'leased'
                ? `leased case ${e.lease.caseId} as ${e.lease.holder} (token ${e.lease.token})\n`
                : e.kind === 'claimed'
                  ? `claimed job ${e.jobId}\n`
                  : `done job ${e.outcome.jobId}: ${e.outcome.converged} claims converged (server head seq ${e.head})\n`,
            ),
          ...(pause > 0 ? { afterClaim: () => sleep(pause) } : {}),
        });
        if (run.status === 'converged') {
          out.stdout(`converged: ${run.jobs.length} jobs\n`);
          return 0;
        }
        if (run.status === 'lost') {
          out.stderr(`team worker: the converger lease was taken over by ${run.heldBy ?? 'another worker'} after ${run.jobs.length} jobs; stopped\n`);
          return 1;
        }
        if (!values.wait) {
          out.stderr(
            run.status === 'busy'
              ? `team worker: ${run.heldBy ?? 'another worker'} converges this case now; nothing was done (--wait waits for its lease)\n`
              : `team worker: ${run.openJobs} revocation jobs are under ${run.heldLocally ? `${run.heldLocally.owner}'s lease until ${new Date(run.heldLocally.expiresAt).toISOString()}` : "another worker's lease"} in this case file; ${run.jobs.length} converged (--wait waits for it)\n`,
          );
          return 1;
        }
        await sleep(Math.min(1000, leaseMs / 4));
      }
    });
  } finally {
    session.close();
  }
}

/** `team sync`: pull, take this reviewer's provisional actions again if the server moved past them, push. */
async function runSync(casePath: string, url: string, values: WorkerValues, out: Out): Promise<number> {
  const actorId = values.as!;
  const passphrase = await readPassphrase(actorId, { fd: values['passphrase-fd'], file: values['passphrase-file'] });
  rememberServer(resolve(casePath), url);
  const done = await withServer(url, (client) => syncCase(resolve(casePath), client, { userDataDir: userDataOf(values), actorId, passphrase }, (step) => out.stderr(`sync: ${step}\n`)));
  out.stdout(`pulled ${done.pulled} receipts (verified); took ${done.replayed.length} provisional actions again on the server's head; pushed ${done.pushed} (head seq ${done.head})\n`);
  for (const c of done.conflicts) out.stdout(`conflict for ${c.actor}: ${c.channel} made ${c.made_at}: ${c.reason}\n`);
  return 0;
}

/** `team conflicts` lists the provisional actions waiting for their authors; `team drop` drops one of yours. */
function conflictsCommand(command: 'conflicts' | 'drop', rest: string[], actorId: string | undefined, out: Out): number {
  const db = openCaseFile(resolve(rest[0]!));
  try {
    if (command === 'drop') {
      const id = Number(rest[1]);
      if (!Number.isInteger(id) || id < 1) throw invalid(`conflict id: expected a positive whole number, got ${rest[1]}`);
      dropConflict(db, id, actorId!);
      out.stdout(`dropped conflict ${id}\n`);
      return 0;
    }
    const rows = listConflicts(db, actorId);
    if (rows.length === 0) out.stdout(`no conflicts${actorId ? ` for ${actorId}` : ''}\n`);
    for (const c of rows) out.stdout(`${c.conflict_id}\t${c.actor}\t${c.channel}\tmade ${c.made_at}\t${c.reason}${c.request ? `\n\trequest: ${c.request}` : ''}\n`);
    return 0;
  } finally {
    db.close();
  }
}

/** Keeps the server's address (no user, no password) in the replica, for the window's team status. */
function rememberServer(casePath: string, url: string): void {
  const db = openCaseFile(casePath);
  try {
    writeTransaction(db, () => noteServer(db, serverLocation(url)));
  } finally {
    db.close();
  }
}
