import { parseArgs } from 'node:util';
import pg from 'pg';
import { chainHead } from '../core/audit/receiptViews';
import { WorkbenchError } from '../core/errors';
import { readCaseMeta } from '../core/services/caseMeta';
import { openReader, schemaVersion, type CaseDb } from '../core/store/caseFile';
import { LATEST_VERSION } from '../core/store/migrations';
import { holdsHead, publishCase, pushCase, type PushProgress } from '../core/team/publish';
import { initTeamStore, teamHead, teamRoleName } from '../core/team/teamStore';
import { listActors } from '../core/store/actorRows';

export const TEAM_USAGE = `usage:
  npm run team -- init <postgres-url>
  npm run team -- publish <case-file> <postgres-url>
  npm run team -- push <case-file> <postgres-url>
  npm run team -- status <case-file> <postgres-url>

init creates (or brings up to date) the team schema on an existing PostgreSQL database: the
receipt log, members and row-level security policies. Connect as a role that may create schemas
and roles (the database owner with CREATEROLE, or a superuser).
publish verifies the case file, then puts it on the server: the case, one PostgreSQL login role
per reviewer (erwb_<name>_<tag>, no password: set one with ALTER ROLE … PASSWORD), their clearance
as row-level security, and every receipt. push sends the receipts the server does not have yet,
in batches that each commit (a push cut off resumes where it stopped). status compares the case
file's chain head with the server's.
The case file is only read. Exit 0 on success, 1 on a refusal (its reason on stderr), 2 on bad usage.`;

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

export async function runTeamCommand(args: string[], out: Out): Promise<number> {
  let positionals: string[];
  try {
    positionals = parseArgs({ args, allowPositionals: true, options: {} }).positionals;
  } catch (err) {
    out.stderr(`team: ${(err as Error).message}\n${TEAM_USAGE}\n`);
    return 2;
  }
  const [command, ...rest] = positionals;
  const wants = command === 'init' ? 1 : 2;
  if (!command || !['init', 'publish', 'push', 'status'].includes(command) || rest.length !== wants) {
    out.stderr(`${TEAM_USAGE}\n`);
    return 2;
  }
  try {
    if (command === 'init') {
      const { from, to } = await withServer(rest[0]!, initTeamStore);
      out.stdout(from === to ? `team schema already at version ${to}\n` : `team schema at version ${to} (was ${from})\n`);
      return 0;
    }
    const [casePath, url] = rest as [string, string];
    const db = openCase(casePath);
    try {
      const onProgress = (p: PushProgress) => out.stderr(`${progressLine(p)}\n`);
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
      const server = await withServer(url, (client) => teamHead(client, caseId));
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
      return 0;
    } finally {
      db.close();
    }
  } catch (err) {
    out.stderr(`team ${command}: ${(err as Error).message}\n`);
    return 1;
  }
}
