import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { initTeamStore } from '../core/team/teamStore';
import { startPgCluster, type PgCluster } from './pgCluster';

/**
 * Test helper (not a test): a throwaway PostgreSQL cluster with the team schema, for the test file
 * that calls it (its beforeAll/afterAll). `admin` is a superuser connection, as the server's
 * owner; the fields are set once the file's first beforeAll has run.
 */
export function useTeamServer(): { cluster: PgCluster; admin: pg.Client } {
  const server = {} as { cluster: PgCluster; admin: pg.Client };
  beforeAll(async () => {
    server.cluster = await startPgCluster();
    server.admin = new pg.Client({ connectionString: server.cluster.url });
    await server.admin.connect();
    await initTeamStore(server.admin);
  }, 120_000);
  afterAll(async () => {
    await server.admin?.end();
    server.cluster?.stop();
  });
  return server;
}
