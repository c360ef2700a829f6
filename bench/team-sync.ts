/**
 * The team server's receipt log (issue 15) on a throwaway PostgreSQL cluster: push and read back
 * about 100,000 receipts of a generated case (built through bundle:import), each against a
 * baseline measured in the same run on the same cluster: the same rows (receipts, texts and row
 * images) through a bare batched INSERT into tables with no constraints, triggers or policies, and
 * a bare paged SELECT of them.
 * Then a push of 1,000 receipts onto a server log already holding 1,000,000 (the million are
 * written by SQL, chained by hash, so building them takes seconds, not an hour of imports). Then
 * replicas: a clone of the generated case against verifying the same file, and a pull of 1,000
 * new receipts made on another replica (new claims and evidence, bindings and lifecycle moves of
 * old ones) into a replica this machine verified, against the same pull verifying the whole file.
 *
 *   npx tsx bench/team-sync.ts [--claims 10000] [--batch 1000] [--million 1000000] [--replicas-only]
 *
 * --replicas-only skips the push and read-back baselines. --replica-by-copy makes the first
 * replica a copy of the generated case file instead of a clone, its receipts sent to the server
 * without row images (the replica holds the rows already), and verifies it whole once on this
 * machine (its mark), to time a pull into a replica that did not go through a clone. Without it
 * the first replica is a clone of the published case, and the publish and the clone are timed.
 * With --claims 90910 the generated case has 1,000,011 receipts, the size the pull's goal is set
 * at (about 40 minutes here, most of it the import; run with
 * NODE_OPTIONS=--max-old-space-size=16000, since the bench itself holds every receipt).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { ReceiptRow } from '../electron/core/audit/receipts';
import { readCaseMeta } from '../electron/core/services/caseMeta';
import { verifyCaseFile } from '../electron/core/audit/verifyFile';
import { marksOf } from '../electron/core/audit/verifyMarks';
import { dispatch } from '../electron/core/dispatch';
import { handlers } from '../electron/core/handlers';
import { openCaseFile, writeTransaction } from '../electron/core/store/caseFile';
import { noteServer, noteServerSeq, startCapture } from '../electron/core/store/replicaRows';
import { pushCase } from '../electron/core/team/publish';
import { cloneCase, pullCase } from '../electron/core/team/replica';
import { classificationRank, receiptScopes } from '../electron/core/team/receiptScope';
import { serverLocation } from '../electron/core/team/teamView';
import { appendReceipts, appendRowsAtHead, createTeamCase, initTeamStore, readReceipts, registerMembers, teamHead, type TeamReceipt } from '../electron/core/team/teamStore';
import { listActors } from '../electron/core/store/actorRows';
import { generatedEvidenceId, writeGeneratedBundle } from '../electron/testing/generatedBundle';
import { startPgCluster } from '../electron/testing/pgCluster';
import { createTestCase, TEST_PASSPHRASE, testSession } from '../electron/testing/testCase';
import { report } from './lib';

const { values } = parseArgs({
  options: { claims: { type: 'string', default: '10000' }, batch: { type: 'string', default: '1000' }, million: { type: 'string', default: '1000000' }, 'replicas-only': { type: 'boolean', default: false },
    'replica-by-copy': { type: 'boolean', default: false } },
});
const CLAIMS = Number(values.claims);
const BATCH = Number(values.batch);
const MILLION = Number(values.million);
const RUNS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** What `fn` answers, and how far above its starting point the heap grew meanwhile (sampled every 50 ms, and at the end). */
async function withPeakHeap<T>(fn: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
  const timer = setInterval(sample, 50);
  try {
    const value = await fn();
    sample();
    return { value, growthMb: Math.round((peak - start) / 1024 ** 2) };
  } finally {
    clearInterval(timer);
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-team-'));
  const tc = await createTestCase();
  const cluster = await startPgCluster();
  const client = new pg.Client({ connectionString: cluster.url });
  try {
    const t0 = performance.now();
    await tc.call('bundle:import', { path: writeGeneratedBundle(dir, CLAIMS, 20261205, 5) });
    const db = tc.session.db();
    const rows = db.prepare('SELECT * FROM audit_receipt ORDER BY seq').all() as ReceiptRow[];
    report('generated case (through bundle:import)', { claims: CLAIMS, receipts: rows.length, build_s: ((performance.now() - t0) / 1000).toFixed(1) });

    await client.connect();
    await initTeamStore(client);
    // The baseline's tables hold the same columns, keyed for paging like ours, with no checks,
    // foreign keys, triggers or policies.
    await client.query(`CREATE TABLE bare_receipt (case_id text, seq bigint, prev_hash text, hash text, at text, actor text, action text,
      signer text, signature text, targets text, body text, pre_state_fp text, post_state_fp text, artifact_digests text, salt text,
      PRIMARY KEY (case_id, seq))`);
    await client.query(`CREATE TABLE bare_content (case_id text, item text, seq bigint, media_type text, content text, content_sha256 text, tenant text, rank smallint,
      PRIMARY KEY (case_id, item))`);
    await client.query('CREATE TABLE bare_rows (case_id text, through_seq bigint, part integer, images text, PRIMARY KEY (case_id, through_seq, part))');

    const { caseId } = readCaseMeta(db);
    if (!values['replicas-only']) await serverBenches(client, db, rows, caseId);
    await replicaBenches(client, cluster.url, db, rows, caseId, dir, tc);
  } finally {
    await client.end().catch(() => {});
    cluster.stop();
    tc.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

type CaseDb = ReturnType<Awaited<ReturnType<typeof createTestCase>>['session']['db']>;

async function serverBenches(client: pg.Client, db: CaseDb, rows: ReceiptRow[], caseId: string) {
  {
    // Each run pushes the whole case under a new case id onto the same server, so later runs also
    // pay for the rows earlier ones left (as a real server would).
    const pushMs: number[] = [];
    const bareMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const id = `${caseId}-${run}`;
      db.prepare("UPDATE case_meta SET value = ? WHERE key = 'case_id'").run(id);
      await createTeamCase(client, id, 'bench');
      pushMs.push(await timed(() => pushCase(db, client, { batch: BATCH })));
      // The same rows the push wrote (receipts, bodies and the evidence texts), bare.
      const { rows: content } = await client.query<{ item: string; seq: string; media_type: string; content: string; content_sha256: string; tenant: string; rank: number }>(
        'SELECT item, seq, media_type, content, content_sha256, tenant, rank FROM erwb.team_content WHERE case_id = $1 ORDER BY seq', [id]);
      const { rows: images } = await client.query<{ through_seq: string; part: number; images: string }>('SELECT through_seq, part, images FROM erwb.team_rows WHERE case_id = $1', [id]);
      const textsOf = new Map<number, typeof content>();
      for (const c of content) {
        const start = Math.floor((Number(c.seq) - rows[0]!.seq) / BATCH) * BATCH;
        textsOf.set(start, [...(textsOf.get(start) ?? []), c]);
      }
      bareMs.push(
        await timed(async () => {
          for (let i = 0; i < rows.length; i += BATCH) {
            const chunk = rows.slice(i, i + BATCH);
            const col = <K extends keyof ReceiptRow>(k: K) => chunk.map((r) => r[k]);
            await client.query(
              `INSERT INTO bare_receipt SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                 $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])`,
              [`${id}-bare`, col('seq'), col('prev_hash'), col('hash'), col('at'), col('actor'), col('action'), col('signer'), col('signature'),
                col('targets'), col('body'), col('pre_state_fp'), col('post_state_fp'), col('artifact_digests'), col('salt')],
            );
            const texts = textsOf.get(i) ?? [];
            if (texts.length === 0) continue;
            const of = <K extends keyof (typeof content)[number]>(k: K) => texts.map((c) => c[k]);
            await client.query(
              `INSERT INTO bare_content SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::smallint[])`,
              [`${id}-bare`, of('item'), of('seq'), of('media_type'), of('content'), of('content_sha256'), of('tenant'), of('rank')],
            );
          }
          for (const r of images) await client.query('INSERT INTO bare_rows VALUES ($1, $2, $3, $4)', [`${id}-bare`, r.through_seq, r.part, r.images]);
        }),
      );
    }
    db.prepare("UPDATE case_meta SET value = ? WHERE key = 'case_id'").run(caseId);
    const push = median(pushMs);
    const bare = median(bareMs);
    report('push (receipts, bodies, evidence texts, row images; a transaction per batch)', {
      receipts: rows.length, batch: BATCH, median_ms: push.toFixed(0), receipts_per_s: Math.round(rows.length / (push / 1000)),
      baseline_bare_insert_ms: bare.toFixed(0), baseline_per_s: Math.round(rows.length / (bare / 1000)), ratio_of_baseline: (bare / push).toFixed(2),
    });

    const readMs: number[] = [];
    const bareReadMs: number[] = [];
    const id0 = `${caseId}-0`;
    for (let run = 0; run < RUNS; run++) {
      readMs.push(
        await timed(async () => {
          for (let after = 0, got = 1; got > 0; ) {
            const page = await readReceipts(client, id0, after, BATCH);
            got = page.length;
            after = page.at(-1)?.seq ?? after;
          }
        }),
      );
      bareReadMs.push(
        await timed(async () => {
          for (let after = 0, got = 1; got > 0; ) {
            const page = await client.query<{ seq: string }>('SELECT * FROM bare_receipt WHERE case_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [`${id0}-bare`, after, BATCH]);
            got = page.rows.length;
            after = got > 0 ? Number(page.rows.at(-1)!.seq) : after;
          }
        }),
      );
    }
    const read = median(readMs);
    const bareRead = median(bareReadMs);
    report('pull (read back in pages, as the owner)', {
      receipts: rows.length, median_ms: read.toFixed(0), receipts_per_s: Math.round(rows.length / (read / 1000)),
      baseline_bare_select_ms: bareRead.toFixed(0), ratio_of_baseline: (bareRead / read).toFixed(2),
    });

    // A million receipts on the server, chained by hash, then 1,000 real ones pushed on top.
    const big = `${caseId}-million`;
    await createTeamCase(client, big, 'bench: a million receipts');
    const tBuild = performance.now();
    await client.query(
      `INSERT INTO erwb.team_receipt (case_id, seq, prev_hash, hash, at, actor, action, scope_tenants, scope_rank, scope_unknown)
       SELECT $1, s, CASE WHEN s = 1 THEN repeat('0', 64) ELSE encode(sha256((s - 1)::text::bytea), 'hex') END,
              encode(sha256(s::text::bytea), 'hex'), '2026-12-05T00:00:00.000Z', 'bench', 'bench:filler', '{acme}', 1, false
       FROM generate_series(1, $2::bigint) AS s`,
      [big, MILLION],
    );
    await client.query(
      `INSERT INTO erwb.team_receipt_body (case_id, seq, targets, body, artifact_digests)
       SELECT $1, s, '[]', '{"filler":true}', '{}' FROM generate_series(1, $2::bigint) AS s`,
      [big, MILLION],
    );
    const headHash = (await client.query<{ h: string }>("SELECT encode(sha256($1::text::bytea), 'hex') AS h", [String(MILLION)])).rows[0]!.h;
    await client.query('UPDATE erwb.team_case SET head_seq = $2, head_hash = $3 WHERE case_id = $1', [big, MILLION, headHash]);
    await client.query('ANALYZE erwb.team_receipt; ANALYZE erwb.team_receipt_body');
    const buildS = (performance.now() - tBuild) / 1000;
    const thousand = rows.slice(0, 1000);
    const scopes = receiptScopes(db, thousand);
    let prev = { seq: MILLION, hash: headHash };
    const relinked: TeamReceipt[] = thousand.map((r, i) => {
      const seq = MILLION + i + 1;
      const out = { ...r, seq, prev_hash: prev.hash, scope: scopes[i]! };
      prev = { seq, hash: r.hash };
      return out;
    });
    const onTop = await timed(async () => {
      let head = (await teamHead(client, big))!;
      for (let i = 0; i < relinked.length; i += BATCH) head = await appendReceipts(client, big, head, relinked.slice(i, i + BATCH));
    });
    report('push of 1,000 receipts onto a long server log', { server_receipts: MILLION, build_s: buildS.toFixed(1), push_ms: onTop.toFixed(0), goal_ms: 2000 });
  }
}

async function replicaBenches(client: pg.Client, url: string, db: CaseDb, rows: ReceiptRow[], caseId: string, dir: string, tc: Awaited<ReturnType<typeof createTestCase>>) {
  {

    // Replicas: a clone of the generated case (receipts and rows applied, the whole file verified
    // before it is kept), then a sync of 1,000 new receipts into a replica of it.
    const first = join(dir, 'replica-1.case.sqlite');
    const second = join(dir, 'replica-2.case.sqlite');
    // The runs above pushed the file under borrowed case ids, which its receipts do not say (a
    // clone of one would rightly not verify): the case goes up once more under its own id.
    await createTeamCase(client, caseId, 'bench');
    // This machine's verification marks: the clone leaves one, and the pull starts from it.
    const marks = marksOf(join(tc.dir, 'user'));
    let cloneMs: number;
    if (values['replica-by-copy']) {
      const t0 = performance.now();
      await registerMembers(client, caseId, listActors(db).map((a) => ({ actorId: a.actorId, role: a.role, tenants: a.tenants, maxRank: classificationRank(a.maxClassification) })));
      let head = (await teamHead(client, caseId))!;
      for (let i = 0; i < rows.length; i += BATCH) {
        const chunk = rows.slice(i, i + BATCH);
        const scopes = receiptScopes(db, chunk);
        head = await appendReceipts(client, caseId, head, chunk.map((r, j) => ({ ...r, scope: scopes[j]! })));
      }
      await appendRowsAtHead(client, caseId, head, { parts: [] });
      writeTransaction(db, () => {
        startCapture(db);
        noteServerSeq(db, head.seq);
      });
      db.pragma('wal_checkpoint(TRUNCATE)');
      copyFileSync(tc.casePath, first);
      const sent = performance.now() - t0;
      const verified = await verifyCaseFile(first, { marks });
      if (verified.exitCode !== 0) throw new Error(verified.summary);
      report('replica by copy (receipts sent without row images; the copy verified whole, its mark kept)', { receipts: rows.length, send_s: (sent / 1000).toFixed(1), verify_s: ((performance.now() - t0 - sent) / 1000).toFixed(1) });
      cloneMs = Number.NaN;
    } else {
      // The publish and the clone read and send row images a part at a time: the heap they grow
      // by stays far below the case's size.
      const published = await withPeakHeap(() => timed(() => pushCase(db, client, { batch: BATCH })));
      const cloned = await withPeakHeap(() => timed(() => cloneCase(client, caseId, first, { marks })));
      cloneMs = cloned.value;
      const parts = await client.query<{ n: number; chars: string }>('SELECT count(*)::int AS n, sum(length(images))::bigint AS chars FROM erwb.team_rows WHERE case_id = $1', [caseId]);
      report('publish of the whole case (receipts, texts, every row image in parts), then its clone', {
        receipts: rows.length, publish_s: (published.value / 1000).toFixed(1), publish_heap_growth_mb: published.growthMb, row_image_parts: parts.rows[0]!.n,
        row_image_mb: Math.round(Number(parts.rows[0]!.chars) / 1024 ** 2), clone_s: (cloned.value / 1000).toFixed(1), clone_heap_growth_mb: cloned.growthMb,
      });
    }
    // The second replica is a copy of the first (the same receipts; the mark holds for it too), and
    // a third takes the same pull verifying the whole file, the baseline.
    copyFileSync(first, second);
    const third = join(dir, 'replica-3.case.sqlite');
    copyFileSync(first, third);
    const baseVerifyMs = values['replica-by-copy'] ? Number.NaN : await timed(async () => verifyCaseFile(first));
    if (!values['replica-by-copy']) report('clone (receipts and rows, applied, whole file verified)', {
      receipts: rows.length, clone_ms: cloneMs.toFixed(0), receipts_per_s: Math.round(rows.length / (cloneMs / 1000)),
      baseline_verify_file_ms: baseVerifyMs.toFixed(0), ratio_of_verify: (baseVerifyMs / cloneMs).toFixed(2),
    });
    const laptop = testSession({ userDataDir: join(tc.dir, 'user') });
    laptop.open(first);
    const seat = laptop.seat('bench');
    seat.unlock('admin', TEST_PASSPHRASE);
    writeTransaction(seat.db(), () => noteServer(seat.db(), serverLocation(url)));
    const channel = async (name: 'team:status' | 'team:sync') => {
      const answer = await dispatch(handlers, seat, name, {});
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value;
    };
    const statusMs: number[] = [];
    for (let run = 0; run < RUNS; run++) statusMs.push(await timed(() => channel('team:status')));
    // 1,000 receipts of four kinds: new claims and new evidence, and bindings and lifecycle moves
    // of what the replica already holds (whose old receipts a pull must check again).
    const old = (i: number) => generatedEvidenceId(Math.floor(((i + 1) * 7919) % Math.max(1, rows.length / 11)));
    const call = async (name: 'claim:create' | 'evidence:ingest' | 'claim:bind' | 'evidence:transition', request: unknown) => {
      const answer = await dispatch(handlers, seat, name, request as never);
      if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
    };
    for (let i = 0; i < 250; i++) {
      await call('claim:create', { claimId: `cl-sync-${i}`, statement: `made on the first replica ${i}`, scope: [], tenant: 'acme', classification: 'internal' });
      await call('evidence:ingest', {
        evidenceId: `ev-sync-${i}`, title: `seen on the first replica ${i}`, kind: 'log_record', content: `2026-12-07T10:00:00Z net_connect host=HOST-FS01 sync=${i}`,
        context: {
          sourceType: 'edr', sourceRef: `mde:sync:${i}`, sourceVersion: '1', observedAt: '2026-12-07T10:00:00.000Z', effectiveFrom: '2026-12-07T10:00:00.000Z', validUntil: null,
          producerType: 'tool', producer: 'defender-for-endpoint', tenant: 'acme', classification: 'internal', trustTier: 'trusted', confidence: null,
          independenceGroup: 'edr-sync', validationMethod: 'hash+schema', appliesTo: ['HOST-FS01'],
        },
      });
      await call('claim:bind', { claimId: `cl-sync-${i}`, revisionId: `${old(i)}@1`, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
      await call('evidence:transition', { revisionId: `${old(i + 250)}@1`, to: 'QUARANTINED', reason: `suspected tampering ${i}` });
    }
    let pushed = { pushed: 0 };
    const windowSyncMs = await timed(async () => (pushed = (await channel('team:sync')) as { pushed: number }));
    report('the window on the replica (channels, through the reviewer\'s own role)', {
      replica_receipts: rows.length, team_status_median_ms: median(statusMs).toFixed(0), team_sync_push_1000_ms: windowSyncMs.toFixed(0), pushed: pushed.pushed,
    });
    laptop.close();
    const pullInto = async (path: string, withMarks: boolean) => {
      const behind = openCaseFile(path);
      try {
        let verified = '';
        const ms = await timed(async () => (verified = (await pullCase(behind, client, { marks: withMarks ? marks : null })).verified));
        return { ms, verified };
      } finally {
        behind.close();
      }
    };
    const sinceMark = await pullInto(second, true);
    const whole = await pullInto(third, false);
    report('sync of 1,000 new receipts into a replica', {
      replica_receipts: rows.length, pulled: pushed.pushed, pull_ms: sinceMark.ms.toFixed(0), verified: sinceMark.verified, goal_ms: 2000,
      baseline_whole_file_pull_ms: whole.ms.toFixed(0), ratio_of_baseline: (whole.ms / sinceMark.ms).toFixed(1),
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
