import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PgCluster } from '../../testing/pgCluster';
import { useTeamServer } from '../../testing/teamServer';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';
import { listReceipts } from '../audit/receiptViews';
import { redactReceipts } from '../audit/redact';
import { sealedDigest, type ReceiptRow } from '../audit/receipts';
import { checkServedChain } from './servedChain';
import { readCaseMeta } from '../services/caseMeta';
import { listActors } from '../store/actorRows';
import { canSee } from '../store/acl';
import { sha256Hex } from '../crypto';
import type { Classification } from '../../../shared/domain/enums';
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from './migrations';
import { publishCase, pushCase } from './publish';
import { appendReceipts, GENESIS_HEAD, initTeamStore, readReceipts, teamHead, teamRoleName, type TeamReceipt } from './teamStore';

const server = useTeamServer();
let cluster: PgCluster;
let admin: pg.Client;
beforeAll(() => void ({ cluster, admin } = server));

let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

/** Runs `read` on a connection as the reviewer's own PostgreSQL role, as they would with psql. */
async function asReviewer(actorId: string, read: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: cluster.urlAs(teamRoleName(actorId)) });
  await client.connect();
  try {
    await read(client);
  } finally {
    await client.end();
  }
}

interface LocalItem {
  id: string;
  content: string;
  tenant: string;
  classification: Classification;
}

const caseRows = (): ReceiptRow[] => rc.session.db().prepare('SELECT * FROM audit_receipt ORDER BY seq').all() as ReceiptRow[];

/** A case with material in two tenants and two classifications, and a reviewer of each tenant. */
async function twoTenantCase(): Promise<void> {
  await rc.call('actor:create', { actorId: 'gus', displayName: 'Gus (globex)', role: 'reviewer', tenants: ['globex'], maxClassification: 'restricted', passphrase: TEST_PASSPHRASE });
  await rc.evidence('ev-acme');
  await rc.evidence('ev-secret', { classification: 'restricted' });
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-acme@1');
  rc.as('admin');
  const { revisionId } = await rc.call('evidence:ingest', {
    evidenceId: 'ev-globex',
    title: 'Globex proxy log',
    kind: 'log_record',
    content: 'globex-only: 10.9.8.7 beaconing to c2.example every 60 s',
    context: {
      sourceType: 'proxy', sourceRef: 'proxy://globex/1', sourceVersion: '1', observedAt: '2026-11-19T22:00:00.000Z',
      effectiveFrom: '2026-11-19T22:00:00.000Z', validUntil: null, producerType: 'tool', producer: 'squid', tenant: 'globex',
      classification: 'internal', trustTier: 'trusted', confidence: 0.8, independenceGroup: 'globex-proxy',
      validationMethod: 'hash-and-source-check', appliesTo: ['globex'],
    },
  });
  await rc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
  // Source documents are scoped like evidence: one in each compartment.
  await rc.call('source:add', { title: 'HR interview notes', content: 'Interview about the night of 19 November.', mediaType: 'text/plain', tenant: 'acme', classification: 'restricted' });
  await rc.call('source:add', { title: 'Globex proxy export', content: 'globex proxy export, full day', mediaType: 'text/plain', tenant: 'globex', classification: 'internal' });
}

describe('team init', () => {
  it('creates the schema once and is a no-op the second time', async () => {
    expect(await initTeamStore(admin)).toEqual({ from: TEAM_SCHEMA_VERSION, to: TEAM_SCHEMA_VERSION });
    const { rows } = await admin.query('SELECT version FROM erwb.team_schema ORDER BY version');
    expect(rows.map((r: { version: number }) => r.version)).toEqual(TEAM_MIGRATIONS.map((m) => m.version));
  });

  it('refuses a server whose team schema is newer than this build', async () => {
    const other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
    try {
      await other.query("INSERT INTO erwb.team_schema (version, name) VALUES (99999, 'from the future')");
      await expect(initTeamStore(admin)).rejects.toThrow(`server's team schema is at version 99999, newer than this workbench's ${TEAM_SCHEMA_VERSION}`);
    } finally {
      await other.query('DELETE FROM erwb.team_schema WHERE version = 99999');
      await other.end();
    }
  });

  it('gives distinct actor ids distinct roles, even when they read alike', () => {
    expect(teamRoleName('Bob.K')).toMatch(/^erwb_bob_k_[0-9a-f]{8}$/);
    expect(teamRoleName('bob.k')).not.toBe(teamRoleName('Bob.K'));
    expect(teamRoleName('x'.repeat(200)).length).toBeLessThanOrEqual(63);
  });
});

describe('publish and push', () => {
  it('puts every receipt on the server, byte for byte, and the chain recomputes from what the server holds', async () => {
    await twoTenantCase();
    const local = caseRows();
    const progress: number[] = [];
    const done = await publishCase(rc.session.db(), admin, { batch: 7, onProgress: (p) => progress.push(p.pushed) });
    expect(done).toMatchObject({ pushed: local.length, total: local.length, head: { seq: local.length, hash: local.at(-1)!.hash } });
    expect(progress.at(-1)).toBe(local.length);
    expect(progress.length).toBe(Math.ceil(local.length / 7));
    const { caseId } = readCaseMeta(rc.session.db());
    const served = await readReceipts(admin, caseId, 0, 10_000);
    expect(served.map(({ readable: _r, content_digest: _d, ...r }) => r)).toEqual(local);
    expect(served.every((r) => r.content_digest === sealedDigest(local[r.seq - 1]!.salt!, local[r.seq - 1]!))).toBe(true);
    expect(checkServedChain(served)).toEqual({ verified: local.length, throughSeal: 0, firstBroken: null });
  });

  it('pushes only what the server lacks, and refuses a case already published', async () => {
    await rc.evidence('ev-1');
    const db = rc.session.db();
    const first = await publishCase(db, admin);
    await expect(publishCase(db, admin)).rejects.toThrow('is already on this server; sync it instead');
    expect((await pushCase(db, admin)).pushed).toBe(0);
    await rc.claim('cl-1');
    const second = await pushCase(db, admin);
    expect(second.pushed).toBe(caseRows().length - first.head.seq);
    expect(second.head.hash).toBe(caseRows().at(-1)!.hash);
  });

  it('resumes a push cut between batches from the last batch that committed', async () => {
    await twoTenantCase();
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    // The cut: the connection dies after the second batch committed.
    let batches = 0;
    const cut = new Error('connection lost');
    await expect(
      publishCase(db, admin, {
        batch: 5,
        onProgress: () => {
          if (++batches === 2) throw cut;
        },
      }),
    ).rejects.toBe(cut);
    expect((await teamHead(admin, caseId))!.seq).toBe(10);
    const rest = await pushCase(db, admin, { batch: 5 });
    expect(rest.pushed).toBe(caseRows().length - 10);
    expect((await readReceipts(admin, caseId, 0, 10_000)).map((r) => r.seq)).toEqual(caseRows().map((r) => r.seq));
  });

  it('refuses to push over a head this case file does not have', async () => {
    await rc.evidence('ev-1');
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin);
    const head = (await teamHead(admin, caseId))!;
    // Another replica's receipt lands on the server first.
    await rc.claim('cl-1');
    const next = caseRows().filter((r) => r.seq > head.seq);
    const forged = { ...next[0]!, hash: 'f'.repeat(64), scope: { tenants: [], rank: 0, unknown: false } };
    await appendReceipts(admin, caseId, head, [forged]);
    await expect(pushCase(db, admin)).rejects.toThrow(`the server holds receipts up to seq ${head.seq + 1} that this case file does not have; pull first`);
  });
});

describe('the engine orders appends', () => {
  const one = (rows: ReceiptRow[], seq: number): TeamReceipt => ({ ...rows[seq - 1]!, scope: { tenants: [], rank: 0, unknown: false } });

  it('lets exactly one of two appends on the same head commit, and names the head it lost to', async () => {
    await rc.evidence('ev-1');
    const db = rc.session.db();
    const { caseId, name } = readCaseMeta(db);
    await admin.query('INSERT INTO erwb.team_case (case_id, name) VALUES ($1, $2)', [caseId, name]);
    const rows = caseRows();
    await appendReceipts(admin, caseId, GENESIS_HEAD, [one(rows, 1)]);
    const head = (await teamHead(admin, caseId))!;
    const rival = { ...one(rows, 2), hash: 'e'.repeat(64) };
    const second = new pg.Client({ connectionString: cluster.url });
    await second.connect();
    try {
      const results = await Promise.allSettled([appendReceipts(admin, caseId, head, [one(rows, 2)]), appendReceipts(second, caseId, head, [rival])]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(String(lost.reason)).toContain('the server\'s head moved to seq 2');
    } finally {
      await second.end();
    }
    expect((await readReceipts(admin, caseId, 0, 10)).map((r) => r.seq)).toEqual([1, 2]);
  });

  it('holds the chain even against a writer that skips the head check', async () => {
    await rc.evidence('ev-1');
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin);
    const insert = (seq: number, prevHash: string) =>
      admin.query(
        `INSERT INTO erwb.team_receipt (case_id, seq, prev_hash, hash, at, actor, action, scope_tenants, scope_rank, scope_unknown)
         VALUES ($1, $2, $3, $4, 'now', 'mallory', 'forged', '{}', 0, false)`,
        [caseId, seq, prevHash, 'd'.repeat(64)],
      );
    const head = (await teamHead(admin, caseId))!;
    // A second receipt at a seq that is taken: a fork.
    await expect(insert(head.seq, caseRows()[head.seq - 2]!.hash)).rejects.toThrow(/duplicate key/);
    // A receipt that does not hang off its predecessor's hash.
    await expect(insert(head.seq + 1, 'c'.repeat(64))).rejects.toThrow(/foreign key/);
    // Nor can history be edited or removed.
    await expect(admin.query('UPDATE erwb.team_receipt SET actor = $2 WHERE case_id = $1 AND seq = 1', [caseId, 'mallory'])).rejects.toThrow('team_receipt is append-only');
    await expect(admin.query('DELETE FROM erwb.team_receipt_body WHERE case_id = $1', [caseId])).rejects.toThrow('team_receipt_body is append-only');
  });
});

describe('row-level security', () => {
  it('shows each reviewer, through plain SQL, exactly the receipts the workbench would show them', async () => {
    await twoTenantCase();
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin);
    const all = listReceipts(db, 100_000);
    for (const actor of listActors(db)) {
      const shown = redactReceipts(db, actor, all).filter((r) => r.targets[0] !== 'hidden').map((r) => r.seq).sort((a, b) => a - b);
      await asReviewer(actor.actorId, async (client) => {
        const { rows } = await client.query<{ seq: string }>('SELECT seq FROM erwb.team_receipt_body WHERE case_id = $1 ORDER BY seq', [caseId]);
        expect({ actor: actor.actorId, seqs: rows.map((r) => Number(r.seq)) }).toEqual({ actor: actor.actorId, seqs: shown });
        // The chain's place of every receipt stays visible to every member.
        const chain = await client.query('SELECT count(*)::int AS n FROM erwb.team_receipt WHERE case_id = $1', [caseId]);
        expect(chain.rows[0].n).toBe(all.length);
      });
    }
  });

  it('lets a member append to the case log as themselves, and nobody else', async () => {
    await rc.evidence('ev-1');
    const { caseId } = readCaseMeta(rc.session.db());
    await publishCase(rc.session.db(), admin);
    await rc.claim('cl-1');
    await admin.query('CREATE ROLE erwb_mallory LOGIN; GRANT erwb_reader TO erwb_mallory');
    try {
      const before = await teamHead(admin, caseId);
      // A role that is no member of the case cannot append, nor move its head.
      const mallory = new pg.Client({ connectionString: cluster.urlAs('erwb_mallory') });
      await mallory.connect();
      try {
        await expect(pushCase(rc.session.db(), mallory)).rejects.toThrow(/not on this server/);
        await expect(mallory.query('UPDATE erwb.team_case SET head_seq = head_seq + 1 WHERE case_id = $1', [caseId])).resolves.toMatchObject({ rowCount: 0 });
        await expect(appendReceipts(mallory, caseId, before!, [])).resolves.toEqual(before);
        const next = caseRows().filter((r) => r.seq > before!.seq);
        await expect(mallory.query(
          `INSERT INTO erwb.team_receipt (case_id, seq, prev_hash, hash, at, actor, action, scope_tenants, scope_rank, scope_unknown) VALUES ($1, $2, $3, $4, $5, $6, $7, '{}', 0, false)`,
          [caseId, next[0]!.seq, next[0]!.prev_hash, next[0]!.hash, next[0]!.at, next[0]!.actor, next[0]!.action],
        )).rejects.toThrow(/row-level security/);
      } finally {
        await mallory.end();
      }
      expect(await teamHead(admin, caseId)).toEqual(before);
      // alice, a member, pushes her receipts with her own login; the server takes them like anyone's.
      await asReviewer('alice', async (alice) => {
        const pushed = await pushCase(rc.session.db(), alice);
        expect(pushed.pushed).toBeGreaterThan(0);
        await expect(alice.query('DELETE FROM erwb.team_receipt WHERE case_id = $1', [caseId])).rejects.toThrow(/permission denied|append-only/);
      });
      expect((await teamHead(admin, caseId))!.seq).toBe(rc.receiptCount());
    } finally {
      await admin.query('DROP OWNED BY erwb_mallory; DROP ROLE erwb_mallory');
    }
  });

  it('keeps a tenant-A reviewer out of tenant-B bodies, and a non-member out of the case', async () => {
    await twoTenantCase();
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin);
    await asReviewer('faye', async (faye) => {
      const { rows } = await faye.query<{ body: string }>('SELECT body FROM erwb.team_receipt_body WHERE case_id = $1', [caseId]);
      const text = rows.map((r) => r.body).join('\n');
      expect(rows.length).toBeGreaterThan(0);
      expect(text).not.toContain('proxy://globex');
      expect(text).not.toContain('ev-secret');
      expect(text).not.toContain('HR interview');
      expect(text).not.toContain('Globex proxy export');
      // What reviewers cannot do at all: write, or change what they are cleared for.
      await expect(faye.query("UPDATE erwb.team_member SET max_rank = 3 WHERE actor_id = 'faye'")).rejects.toThrow(/permission denied/);
      await expect(faye.query('INSERT INTO erwb.team_case (case_id, name) VALUES ($1, $2)', ['x', 'y'])).rejects.toThrow(/permission denied/);
    });
    await asReviewer('gus', async (gus) => {
      const { rows } = await gus.query<{ body: string }>('SELECT body FROM erwb.team_receipt_body WHERE case_id = $1', [caseId]);
      expect(rows.map((r) => r.body).join('\n')).toContain('proxy://globex/1');
      expect(rows.map((r) => r.body).join('\n')).not.toContain('ev-acme');
    });
    // A reviewer of another case (a role that exists, but no membership here) sees no trace of it.
    await admin.query(`INSERT INTO erwb.team_case (case_id, name) VALUES ('other-case', 'Other')`);
    await admin.query(`CREATE ROLE stranger LOGIN IN ROLE erwb_reader`);
    const stranger = new pg.Client({ connectionString: cluster.urlAs('stranger') });
    await stranger.connect();
    try {
      for (const table of ['team_case', 'team_member', 'team_receipt', 'team_receipt_body']) {
        const { rows } = await stranger.query(`SELECT count(*)::int AS n FROM erwb.${table}`);
        expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
      }
    } finally {
      await stranger.end();
      await admin.query('DROP ROLE stranger');
    }
  });
  it('lets every reviewer verify the whole chain through the receipts they may not read, and a cleared one catch an edited body', async () => {
    await twoTenantCase();
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin);
    const n = caseRows().length;
    const seen: Record<string, { verified: number; throughSeal: number }> = {};
    for (const actorId of ['faye', 'gus', 'bob']) {
      await asReviewer(actorId, async (client) => {
        const served = await readReceipts(client, caseId, 0, 10_000);
        const check = checkServedChain(served);
        expect(check.firstBroken).toBeNull();
        seen[actorId] = { verified: check.verified, throughSeal: check.throughSeal };
        // Through the seal, nothing of what a hidden receipt says reaches the reader.
        expect(JSON.stringify(served.filter((r) => !r.readable))).not.toMatch(/proxy:\/\/globex|ev-secret|ev-acme|HR interview|Globex proxy/);
      });
    }
    expect(seen.faye!.verified).toBe(n);
    expect(seen.gus!.verified).toBe(n);
    expect(seen.faye!.throughSeal).toBeGreaterThan(0);
    expect(seen.gus!.throughSeal).toBeGreaterThan(seen.faye!.throughSeal);
    // The server's owner edits a globex receipt's body behind the trigger's back: gus, cleared
    // for it, sees that it no longer matches its digest; faye cannot read it, and her chain still
    // verifies, because her view of it is only the digest, which was left alone.
    const { rows } = await admin.query<{ seq: string }>(`SELECT seq FROM erwb.team_receipt_body WHERE case_id = $1 AND body LIKE '%proxy://globex%' ORDER BY seq LIMIT 1`, [caseId]);
    const edited = Number(rows[0]!.seq);
    await admin.query('ALTER TABLE erwb.team_receipt_body DISABLE TRIGGER team_receipt_body_append_only');
    await admin.query(`UPDATE erwb.team_receipt_body SET body = replace(body, 'proxy://globex/1', 'proxy://globex/2') WHERE case_id = $1 AND seq = $2`, [caseId, edited]);
    await admin.query('ALTER TABLE erwb.team_receipt_body ENABLE TRIGGER team_receipt_body_append_only');
    await asReviewer('gus', async (gus) => {
      expect(checkServedChain(await readReceipts(gus, caseId, 0, 10_000)).firstBroken).toEqual({ seq: edited, reason: 'what the receipt says does not match its seal digest' });
    });
    await asReviewer('faye', async (faye) => {
      expect(checkServedChain(await readReceipts(faye, caseId, 0, 10_000)).firstBroken).toBeNull();
    });
  });

  it('has a reader cleared for a receipt catch a seal digest changed on the server, not only the readers who verify through it', async () => {
    await twoTenantCase();
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin);
    const { rows } = await admin.query<{ seq: string }>(`SELECT seq FROM erwb.team_receipt_body WHERE case_id = $1 AND body LIKE '%proxy://globex%' ORDER BY seq LIMIT 1`, [caseId]);
    const edited = Number(rows[0]!.seq);
    await admin.query('ALTER TABLE erwb.team_receipt DISABLE TRIGGER team_receipt_append_only');
    await admin.query(`UPDATE erwb.team_receipt SET content_digest = repeat('a', 64) WHERE case_id = $1 AND seq = $2`, [caseId, edited]);
    await admin.query('ALTER TABLE erwb.team_receipt ENABLE TRIGGER team_receipt_append_only');
    for (const [actorId, reason] of [
      // gus reads the body: its own digest still gives the stored hash, so only holding the body
      // to the served digest shows the server lies to the others.
      ['gus', 'what the receipt says does not match its seal digest'],
      ['faye', 'hash does not cover the receipt as served'],
    ] as const) {
      await asReviewer(actorId, async (client) => {
        expect(checkServedChain(await readReceipts(client, caseId, 0, 10_000)).firstBroken).toEqual({ seq: edited, reason });
      });
    }
  });
  it('sends each evidence and source text once, and shows it to exactly the reviewers the workbench would', async () => {
    await twoTenantCase();
    const db = rc.session.db();
    const { caseId } = readCaseMeta(db);
    await publishCase(db, admin, { batch: 4 });
    const local = [
      ...(db.prepare('SELECT revision_id AS id, content, tenant, classification FROM evidence_revision').all() as LocalItem[]).map((r) => ({ ...r, item: `revision:${r.id}` })),
      ...(db.prepare('SELECT source_id AS id, content, tenant, classification FROM source_document').all() as LocalItem[]).map((r) => ({ ...r, item: `source:${r.id}` })),
    ];
    const { rows: all } = await admin.query<{ item: string; content: string; content_sha256: string }>('SELECT item, content, content_sha256 FROM erwb.team_content WHERE case_id = $1', [caseId]);
    expect(all.map((r) => r.item).sort()).toEqual(local.map((r) => r.item).sort());
    for (const r of all) expect(r.content_sha256).toBe(sha256Hex(r.content));
    for (const actor of listActors(db)) {
      await asReviewer(actor.actorId, async (client) => {
        const { rows } = await client.query<{ item: string }>('SELECT item FROM erwb.team_content WHERE case_id = $1 ORDER BY item', [caseId]);
        const cleared = local.filter((r) => canSee(actor, r)).map((r) => r.item).sort();
        expect({ actor: actor.actorId, items: rows.map((r) => r.item) }).toEqual({ actor: actor.actorId, items: cleared });
      });
    }
    await asReviewer('faye', async (faye) => {
      const { rows } = await faye.query<{ content: string }>('SELECT content FROM erwb.team_content');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.content).join('\n')).not.toMatch(/globex-only|Interview about/);
    });
    // A later push sends only the texts the server does not hold yet.
    await rc.evidence('ev-late');
    await pushCase(db, admin);
    const { rows: after } = await admin.query<{ item: string }>('SELECT item FROM erwb.team_content WHERE case_id = $1', [caseId]);
    expect(after.length).toBe(all.length + 1);
    expect(after.map((r) => r.item)).toContain('revision:ev-late@1');
  });
});
