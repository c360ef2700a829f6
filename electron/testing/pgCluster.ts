import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster for tests and benches: initdb in a temp dir, pg_ctl on a free
 * loopback port, trust authentication (the tests connect as the roles `team init` creates, which
 * have no passwords), fsync off (a test cluster is thrown away, never recovered). No mock: the
 * team store's ordering and row-level security are PostgreSQL's own, so only PostgreSQL can test
 * them. initdb refuses to run as root, so as root the cluster runs as the `postgres` system user.
 */
export interface PgCluster {
  /** A superuser connection string (the cluster's bootstrap user). */
  readonly url: string;
  readonly port: number;
  /** The connection string of another role on the same cluster, database `postgres`. */
  urlAs(role: string): string;
  /** Kills the server the way a power cut would (immediate shutdown, no checkpoint); the data stays. */
  crash(): void;
  /** Starts the server again on the same port after crash(): it recovers from its log. */
  restart(): void;
  stop(): void;
}

const PG_ROOT = '/usr/lib/postgresql';

/** Where Debian's PostgreSQL binaries are (ERWB_PG_BIN overrides). */
export function postgresBinDir(): string {
  const given = process.env.ERWB_PG_BIN;
  if (given) return given;
  const versions = existsSync(PG_ROOT) ? readdirSync(PG_ROOT).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(PG_ROOT, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!found) {
    throw new Error(`no PostgreSQL server binaries under ${PG_ROOT}/<version>/bin: install them (apt-get install -y postgresql) or set ERWB_PG_BIN`);
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function systemUser(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'erwb-pg-'));
  const data = join(dir, 'data');
  const asRoot = isRoot();
  const superuser = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  if (asRoot) {
    const { uid, gid } = systemUser('postgres');
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    try {
      execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    } catch (e) {
      const err = e as { stderr?: Buffer; message: string };
      throw new Error(`${tool} failed: ${err.stderr?.toString().trim() || err.message}`);
    }
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', superuser, '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  start();
  let stopped = false;
  const urlAs = (role: string) => `postgres://${encodeURIComponent(role)}@127.0.0.1:${port}/postgres`;
  return {
    url: urlAs(superuser),
    port,
    urlAs,
    crash: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    restart: start,
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
