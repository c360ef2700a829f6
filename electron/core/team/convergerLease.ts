import type { ClientBase } from 'pg';

/**
 * The converger lease of a case on the team server (migrations.ts v30): exactly one worker may run
 * a case's outbox at a time, across every machine holding a replica. PostgreSQL decides who gets
 * it (FOR UPDATE SKIP LOCKED: a worker never waits on another's take) and refuses a convergence
 * receipt from anyone but the live holder (a trigger). Each take raises the lease's token, so a
 * worker that stalled past its lease and was taken over cannot append with the token it holds.
 */
export interface ConvergerLease {
  caseId: string;
  holder: string;
  /** The fencing token: raised by every take. A bigint, kept as PostgreSQL's text for it. */
  token: string;
  expiresAt: Date;
}

export interface ConvergerStanding {
  holder: string | null;
  expiresAt: Date | null;
}

export const DEFAULT_TEAM_LEASE_MS = 30_000;

interface LeaseRow {
  case_id: string;
  holder: string;
  token: string;
  lease_expires_at: Date;
}

const toLease = (r: LeaseRow): ConvergerLease => ({ caseId: r.case_id, holder: r.holder, token: r.token, expiresAt: r.lease_expires_at });

/**
 * Takes the case's converger lease when it is free, expired or already `holder`'s; null when
 * another worker holds it (or is taking it at this instant). One statement, so it commits alone.
 */
export async function takeConvergerLease(client: ClientBase, caseId: string, holder: string, leaseMs = DEFAULT_TEAM_LEASE_MS): Promise<ConvergerLease | null> {
  const { rows } = await client.query<LeaseRow>(
    `UPDATE erwb.team_converger c
        SET holder = $2, token = c.token + 1, lease_expires_at = clock_timestamp() + $3 * interval '1 millisecond'
      WHERE c.case_id = (SELECT case_id FROM erwb.team_converger
                          WHERE case_id = $1 AND (holder IS NULL OR holder = $2 OR lease_expires_at <= clock_timestamp())
                          FOR UPDATE SKIP LOCKED)
      RETURNING c.case_id, c.holder, c.token::text AS token, c.lease_expires_at`,
    [caseId, holder, leaseMs],
  );
  return rows[0] ? toLease(rows[0]) : null;
}

/** Extends a lease still held (same holder, same token, not expired); false when it was lost. */
export async function renewConvergerLease(client: ClientBase, lease: ConvergerLease, leaseMs = DEFAULT_TEAM_LEASE_MS): Promise<boolean> {
  const { rows } = await client.query<{ lease_expires_at: Date }>(
    `UPDATE erwb.team_converger SET lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
      WHERE case_id = $1 AND holder = $2 AND token = $3::bigint AND lease_expires_at > clock_timestamp()
      RETURNING lease_expires_at`,
    [lease.caseId, lease.holder, lease.token, leaseMs],
  );
  if (!rows[0]) return false;
  lease.expiresAt = rows[0].lease_expires_at;
  return true;
}

/** Gives the lease up, if it is still this one; a lease taken over since is left to its new holder. */
export async function releaseConvergerLease(client: ClientBase, lease: ConvergerLease): Promise<void> {
  await client.query('UPDATE erwb.team_converger SET holder = NULL, lease_expires_at = NULL WHERE case_id = $1 AND holder = $2 AND token = $3::bigint', [lease.caseId, lease.holder, lease.token]);
}

/** Who converges the case now: the live holder of its lease, or nobody. */
export async function convergerStanding(client: ClientBase, caseId: string): Promise<ConvergerStanding> {
  const { rows } = await client.query<{ holder: string | null; lease_expires_at: Date | null }>(
    'SELECT holder, lease_expires_at FROM erwb.team_converger WHERE case_id = $1 AND lease_expires_at > clock_timestamp()',
    [caseId],
  );
  return rows[0] ? { holder: rows[0].holder, expiresAt: rows[0].lease_expires_at } : { holder: null, expiresAt: null };
}

/** Names the lease for the appending transaction, where the trigger looks for it. */
export async function actAsConverger(client: ClientBase, lease: ConvergerLease): Promise<void> {
  await client.query(`SELECT set_config('erwb.converger', $1, true), set_config('erwb.converger_token', $2, true)`, [lease.holder, lease.token]);
}
