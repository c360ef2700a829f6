import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import { GENESIS_HASH, sealedDigest, type ReceiptRow } from '../audit/receipts';
import { conflict, invalid, WorkbenchError } from '../errors';
import { actAsConverger, type ConvergerLease } from './convergerLease';
import type { ReceiptScope } from './receiptScope';
import { TEAM_MIGRATIONS, TEAM_READER_ROLE, TEAM_SCHEMA_VERSION } from './migrations';

/**
 * The team server's store: PostgreSQL, reached through node-postgres. Plain functions over a
 * connected client, like the case file's repositories; each write is one transaction.
 */

/** An append refused because another got to the head first: pull, then push again. */
export class HeadMoved extends WorkbenchError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/** Serializes `team init` runs against one server (two admins initialising at once). */
const INIT_LOCK = 0x45525742;

export async function inTransaction<T>(client: ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

/** Applies the team schema's pending steps; refuses a server whose schema is newer than this build. */
export async function initTeamStore(client: ClientBase): Promise<{ from: number; to: number }> {
  return inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS erwb');
    await client.query(`CREATE TABLE IF NOT EXISTS erwb.team_schema (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM erwb.team_schema');
    const from = rows[0]?.v ?? 0;
    if (from > TEAM_SCHEMA_VERSION) {
      throw conflict(`team init: the server's team schema is at version ${from}, newer than this workbench's ${TEAM_SCHEMA_VERSION}; update the workbench`);
    }
    for (const m of TEAM_MIGRATIONS.filter((step) => step.version > from)) {
      await client.query(m.sql);
      await client.query('INSERT INTO erwb.team_schema (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    return { from, to: TEAM_SCHEMA_VERSION };
  });
}

/**
 * A reviewer's PostgreSQL role: one per person across cases (roles are the cluster's, not a
 * database's), readable, and distinct for distinct actor ids even when their readable parts agree.
 */
export function teamRoleName(actorId: string): string {
  const readable = actorId.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  const tag = createHash('sha256').update(actorId, 'utf8').digest('hex').slice(0, 8);
  return `erwb_${readable}_${tag}`;
}

export interface TeamMember {
  actorId: string;
  role: 'analyst' | 'reviewer' | 'admin';
  tenants: readonly string[];
  maxRank: number;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Makes each reviewer a member of the case with their clearance, creating their login role when
 * it does not exist yet. The role gets no password here: the server's admin sets one
 * (`ALTER ROLE … PASSWORD`) or maps it in pg_hba.conf, as their site does for any login.
 */
export async function registerMembers(client: ClientBase, caseId: string, members: readonly TeamMember[]): Promise<string[]> {
  const roles: string[] = [];
  for (const m of members) {
    const roleName = teamRoleName(m.actorId);
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [roleName]);
    if (exists.rowCount === 0) await client.query(`CREATE ROLE ${quoteIdent(roleName)} LOGIN`);
    await client.query(`GRANT ${TEAM_READER_ROLE} TO ${quoteIdent(roleName)}`);
    const allTenants = m.tenants.includes('*');
    await client.query(
      `INSERT INTO erwb.team_member (case_id, actor_id, role_name, role, all_tenants, tenants, max_rank)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (case_id, actor_id) DO UPDATE
         SET role = EXCLUDED.role, all_tenants = EXCLUDED.all_tenants, tenants = EXCLUDED.tenants, max_rank = EXCLUDED.max_rank`,
      [caseId, m.actorId, roleName, m.role, allTenants, allTenants ? [] : [...m.tenants], m.maxRank],
    );
    roles.push(roleName);
  }
  return roles;
}

export interface TeamHead {
  seq: number;
  hash: string;
}

export async function teamHead(client: ClientBase, caseId: string): Promise<TeamHead | null> {
  const { rows } = await client.query<{ head_seq: string; head_hash: string }>('SELECT head_seq, head_hash FROM erwb.team_case WHERE case_id = $1', [caseId]);
  const row = rows[0];
  return row ? { seq: Number(row.head_seq), hash: row.head_hash } : null;
}

export async function createTeamCase(client: ClientBase, caseId: string, name: string): Promise<void> {
  const { rowCount } = await client.query('INSERT INTO erwb.team_case (case_id, name) VALUES ($1, $2) ON CONFLICT (case_id) DO NOTHING', [caseId, name]);
  if (rowCount === 0) throw conflict(`team publish: case ${caseId} is already on this server; sync it instead`);
}

export type TeamReceipt = ReceiptRow & { scope: ReceiptScope };

/** The text of an evidence revision or source document, sent with the receipt that first names it. */
export interface TeamContent {
  /** `revision:<id>` or `source:<id>`. */
  item: string;
  seq: number;
  mediaType: string;
  content: string;
  contentSha256: string;
  tenant: string;
  rank: number;
}

export interface AppendExtras {
  /** Evidence and source texts the receipts name for the first time. */
  content?: readonly TeamContent[];
  /** The converger lease, for convergence receipts (convergerLease.ts). */
  lease?: ConvergerLease;
  /** The row images of the push, attached to its last receipt (replicaRows.ts). */
  rows?: TeamRows;
}

/**
 * Row images as a push sends them: NDJSON texts (replicaRows.ts, a RowImage per line), each a part
 * of bounded size, in order. Produced as they are sent, so a push never holds them all.
 */
export interface TeamRows {
  parts: Iterable<string>;
}

/**
 * Keeps a push's row images at `throughSeq`, part by part, scoped by the engine as the receipts
 * since the last images are (their tenants, their highest rank, unknown if any is): a reader
 * cleared for all of those receipts may read the rows they wrote. The point, written last, says
 * how many parts there are (a push that changed no row keeps one empty part).
 */
async function insertRows(client: ClientBase, caseId: string, throughSeq: number, rows: TeamRows): Promise<void> {
  const { rows: scope } = await client.query<{ tenants: string[]; rank: number; unknown: boolean }>(
    `WITH since AS (SELECT COALESCE(max(through_seq), 0) AS prev FROM erwb.team_rows_point WHERE case_id = $1),
          scoped AS (SELECT r.* FROM erwb.team_receipt r, since WHERE r.case_id = $1 AND r.seq > since.prev AND r.seq <= $2)
     SELECT COALESCE((SELECT array_agg(DISTINCT t ORDER BY t) FROM scoped, unnest(scoped.scope_tenants) AS t), '{}') AS tenants,
            COALESCE((SELECT max(scope_rank) FROM scoped), 0)::int AS rank,
            COALESCE((SELECT bool_or(scope_unknown) FROM scoped), false) AS unknown`,
    [caseId, throughSeq],
  );
  const { tenants, rank, unknown } = scope[0]!;
  let parts = 0;
  const insert = (images: string) =>
    client.query(
      `INSERT INTO erwb.team_rows (case_id, through_seq, part, images, scope_tenants, scope_rank, scope_unknown) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [caseId, throughSeq, parts++, images, tenants, rank, unknown],
    );
  // The next part is made (read from the case file, serialized) while the server stores this one.
  let storing: Promise<unknown> | null = null;
  try {
    for (const images of rows.parts) {
      await storing;
      storing = insert(images);
    }
    await storing;
  } finally {
    // When making the next part failed, the part still being stored settles unheard: its outcome no longer matters.
    storing?.catch(() => undefined);
  }
  if (parts === 0) await insert('');
  await client.query('INSERT INTO erwb.team_rows_point (case_id, through_seq, parts) VALUES ($1, $2, $3)', [caseId, throughSeq, parts]);
}

/**
 * Row images for a case published before the server kept them, sent with no new receipt: attached
 * to the head, where no images are yet.
 */
export async function appendRowsAtHead(client: ClientBase, caseId: string, head: TeamHead, rows: TeamRows): Promise<void> {
  await inTransaction(client, async () => {
    const now = await teamHead(client, caseId);
    if (!now || now.seq !== head.seq || now.hash !== head.hash) throw new HeadMoved(`team push: the server's head moved since seq ${head.seq}; pull, then push again`);
    await insertRows(client, caseId, head.seq, rows);
  });
}

/** The last seq up to which the server holds row images: how far a replica can be brought (0: none). */
export async function rowsPoint(client: ClientBase, caseId: string): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>('SELECT max(through_seq) AS n FROM erwb.team_rows_point WHERE case_id = $1', [caseId]);
  return Number(rows[0]?.n ?? 0);
}

/** The pushes (afterSeq, throughSeq] whose row images exist, and how many parts each has; `unreadable`: those the connected role's clearance does not cover. */
export async function rowPoints(client: ClientBase, caseId: string, afterSeq: number, throughSeq: number): Promise<{ points: { throughSeq: number; parts: number }[]; unreadable: number }> {
  const { rows } = await client.query<{ through_seq: string; parts: number; readable: boolean }>(
    `SELECT p.through_seq, p.parts,
            EXISTS (SELECT 1 FROM erwb.team_rows r WHERE r.case_id = p.case_id AND r.through_seq = p.through_seq AND r.part = 0) AS readable
     FROM erwb.team_rows_point p WHERE p.case_id = $1 AND p.through_seq > $2 AND p.through_seq <= $3 ORDER BY p.through_seq`,
    [caseId, afterSeq, throughSeq],
  );
  return { points: rows.map((r) => ({ throughSeq: Number(r.through_seq), parts: r.parts })), unreadable: rows.filter((r) => !r.readable).length };
}

/** One part of a push's row images, as the connected role may read it (null: outside its clearance, or missing). */
export async function readRowPart(client: ClientBase, caseId: string, throughSeq: number, part: number): Promise<string | null> {
  const { rows } = await client.query<{ images: string }>('SELECT images FROM erwb.team_rows WHERE case_id = $1 AND through_seq = $2 AND part = $3', [caseId, throughSeq, part]);
  return rows[0]?.images ?? null;
}

/**
 * Appends receipts that extend `expected`, the head the caller last saw, in one transaction. The
 * head moves by compare-and-swap: when another append got there first, nothing is written and
 * the refusal names the head now on the server (the caller pulls and tries again). The chain's
 * own constraints (one receipt per seq, each hanging off its predecessor's hash) are the
 * engine's, so even a caller that skipped this check could not fork the log. Convergence receipts
 * need the case's converger lease (`lease`, convergerLease.ts): without it the server refuses them
 * and nothing is written.
 */
export async function appendReceipts(
  client: ClientBase,
  caseId: string,
  expected: TeamHead,
  receipts: readonly TeamReceipt[],
  extras: AppendExtras = {},
): Promise<TeamHead> {
  const { content = [], lease, rows } = extras;
  if (receipts.length === 0) return expected;
  let prev = expected;
  for (const r of receipts) {
    if (r.seq !== prev.seq + 1 || r.prev_hash !== prev.hash) {
      throw invalid(`team push: receipt seq ${r.seq} does not extend seq ${prev.seq} (${prev.hash.slice(0, 12)}…); receipts go up in order from the head`);
    }
    prev = { seq: r.seq, hash: r.hash };
  }
  const col = <K extends keyof TeamReceipt>(k: K) => receipts.map((r) => r[k]);
  const of = <K extends keyof TeamContent>(k: K) => content.map((c) => c[k]);
  const append = async (): Promise<TeamHead> => {
    // One statement: the head's compare-and-swap, then the receipts, their bodies and the texts,
    // each written only when the head moved (joined to the moved row); one round trip, and when
    // it is the whole append, its own transaction, so the caller can work while it runs.
    const { rows: moved } = await refusingWithoutLease(caseId, () => client.query<{ n: number }>(
      `WITH moved AS (
         UPDATE erwb.team_case SET head_seq = $4, head_hash = $5 WHERE case_id = $1 AND head_seq = $2 AND head_hash = $3 RETURNING case_id),
       receipts AS (
         INSERT INTO erwb.team_receipt (case_id, seq, prev_hash, hash, at, actor, action, signer, signature, content_digest, scope_tenants, scope_rank, scope_unknown)
         SELECT moved.case_id, seq, prev_hash, hash, at, actor, action, signer, signature, content_digest,
                ARRAY(SELECT jsonb_array_elements_text(tenants::jsonb)), rank, unknown
         FROM moved, unnest($6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::smallint[], $16::boolean[], $17::text[])
           AS t(seq, prev_hash, hash, at, actor, action, signer, signature, tenants, rank, unknown, content_digest)),
       bodies AS (
         INSERT INTO erwb.team_receipt_body (case_id, seq, targets, body, pre_state_fp, post_state_fp, artifact_digests, salt)
         SELECT moved.case_id, t.* FROM moved, unnest($6::bigint[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[]) AS t),
       texts AS (
         -- A text already there but outside the pusher's clearance is invisible to them, so they send it again: kept once.
         INSERT INTO erwb.team_content (case_id, item, seq, media_type, content, content_sha256, tenant, rank)
         SELECT moved.case_id, t.* FROM moved, unnest($24::text[], $25::bigint[], $26::text[], $27::text[], $28::text[], $29::text[], $30::smallint[]) AS t
         ON CONFLICT (case_id, item) DO NOTHING)
       SELECT count(*)::int AS n FROM moved`,
      [
        caseId, expected.seq, expected.hash, prev.seq, prev.hash,
        col('seq'), col('prev_hash'), col('hash'), col('at'), col('actor'), col('action'), col('signer'), col('signature'),
        receipts.map((r) => JSON.stringify(r.scope.tenants)),
        receipts.map((r) => r.scope.rank),
        receipts.map((r) => r.scope.unknown),
        receipts.map((r) => (r.salt === null ? null : sealedDigest(r.salt, r))),
        col('targets'), col('body'), col('pre_state_fp'), col('post_state_fp'), col('artifact_digests'), col('salt'),
        of('item'), of('seq'), of('mediaType'), of('content'), of('contentSha256'), of('tenant'), of('rank'),
      ],
    ));
    if (moved[0]?.n !== 1) {
      const now = await teamHead(client, caseId);
      if (!now) throw conflict(`team push: case ${caseId} is not on this server; publish it first`);
      throw new HeadMoved(`team push: the server's head moved to seq ${now.seq} (${now.hash.slice(0, 12)}…) since seq ${expected.seq}; pull, then push again`);
    }
    return prev;
  };
  if (!lease && !rows) return append();
  return inTransaction(client, async () => {
    if (lease) await actAsConverger(client, lease);
    await append();
    if (rows) await insertRows(client, caseId, prev.seq, rows);
    return prev;
  });
}

/** The server's refusal of a convergence receipt without the live lease (its trigger), as a CONFLICT. */
async function refusingWithoutLease<T>(caseId: string, insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (err) {
    if ((err as { code?: unknown }).code !== LEASE_REFUSED) throw err;
    throw conflict(`team push: ${(err as Error).message}; another worker converges case ${caseId} now (team status names it), so these receipts were not sent`);
  }
}

/** SQLSTATE lock_not_available, raised by the converger trigger (migrations.ts v30). */
const LEASE_REFUSED = '55P03';

/**
 * A receipt as the connected role may read it: its place in the chain and its seal digest always,
 * what it says (and the salt that proves it against the digest) only when cleared for it.
 */
export type TeamReceiptView = Pick<ReceiptRow, 'seq' | 'at' | 'actor' | 'action' | 'prev_hash' | 'hash' | 'signer' | 'signature'> & { content_digest: string | null } & (
  | ({ readable: true } & Pick<ReceiptRow, 'targets' | 'body' | 'pre_state_fp' | 'post_state_fp' | 'artifact_digests' | 'salt'>)
  | { readable: false }
);

export async function readReceipts(client: ClientBase, caseId: string, afterSeq: number, limit: number): Promise<TeamReceiptView[]> {
  const { rows } = await client.query<{
    seq: string; at: string; actor: string; action: string; prev_hash: string; hash: string; signer: string | null; signature: string | null; content_digest: string | null;
    targets: string | null; body: string | null; pre_state_fp: string | null; post_state_fp: string | null; artifact_digests: string | null; salt: string | null;
  }>(
    // A case's seqs are dense (each append extends the head by one), so a page is a range of seq
    // on the receipts' key, and each body is looked up by its key. The LIMIT keeps the planner
    // from flattening that lookup into a join: with statistics it hashed every body on the server
    // for each page, and without them (a fresh server) it chose a nested loop over the whole range.
    `SELECT r.seq, r.at, r.actor, r.action, r.prev_hash, r.hash, r.signer, r.signature, r.content_digest,
            b.targets, b.body, b.pre_state_fp, b.post_state_fp, b.artifact_digests, b.salt
     FROM erwb.team_receipt r
     LEFT JOIN LATERAL (SELECT * FROM erwb.team_receipt_body b WHERE b.case_id = r.case_id AND b.seq = r.seq LIMIT 1) b ON true
     WHERE r.case_id = $1 AND r.seq > $2 AND r.seq <= $2 + $3
     ORDER BY r.seq`,
    [caseId, afterSeq, limit],
  );
  return rows.map((r) => {
    const chain = {
      seq: Number(r.seq), at: r.at, actor: r.actor, action: r.action, prev_hash: r.prev_hash, hash: r.hash, signer: r.signer, signature: r.signature, content_digest: r.content_digest,
    };
    return r.body === null || r.targets === null || r.artifact_digests === null
      ? { ...chain, readable: false as const }
      : { ...chain, readable: true as const, targets: r.targets, body: r.body, pre_state_fp: r.pre_state_fp, post_state_fp: r.post_state_fp, artifact_digests: r.artifact_digests, salt: r.salt };
  });
}

export const GENESIS_HEAD: TeamHead = { seq: 0, hash: GENESIS_HASH };
