/**
 * Audit chain verification at scale (issue 4): builds a case file with N receipts (default
 * 1,000,000, every one hashed and Ed25519-signed by one of six reviewers), then times, in the same
 * run and over the same rows:
 *   baseline  – read every receipt and chain SHA-256 over the stored bodies, nothing else;
 *   run-ends  – verifyChainAsync checking the signature at the end of each run of one signer (plus
 *               the full hash chain, key registrations and state bookkeeping);
 *   every     – verifyChainAsync checking every receipt's signature (the default of audit:verify
 *               and cli verify). Both run signature checks on libuv's thread pool.
 *   routine   – after --routine-new (default 1,000) more receipts are appended: the day-to-day
 *               verification that resumes from this machine's mark at the old head (verifyMarks.ts),
 *               timed whole (finding the mark included) against the same baseline.
 * Reviewer runs are drawn from a seeded geometric distribution (--mean-run, default 32): how many
 * receipts one reviewer appends before someone else does. Run-ends cost grows with the number of
 * runs, so the figure is printed with it.
 *
 *   npx tsx bench/audit-verify.ts [--receipts 1000000] [--mean-run 32] [--repeats 3] [--skip-every]
 */
import Database from 'better-sqlite3';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Keyring, verifySignature, type SigningKey } from '../electron/core/audit/keys';
import { chainHash, receiptHashBody, signedMessage, type ReceiptRow } from '../electron/core/audit/receipts';
import { verifyChainAsync, type ResumePoint, type VerifyOptions } from '../electron/core/audit/verify';
import { VerificationMarks } from '../electron/core/audit/verifyMarks';
import { availableParallelism } from 'node:os';
import { dispatch } from '../electron/core/dispatch';
import { handlers } from '../electron/core/handlers';
import { readCaseMeta } from '../electron/core/services/caseMeta';
import { Session } from '../electron/core/session';
import { seededRandom } from './lib';
import { TEST_KEY_COST, TEST_PASSPHRASE } from '../electron/testing/testCase';

const { values } = parseArgs({
  options: {
    receipts: { type: 'string', default: '1000000' },
    'mean-run': { type: 'string', default: '32' },
    repeats: { type: 'string', default: '3' },
    'skip-every': { type: 'boolean', default: false },
    'routine-new': { type: 'string', default: '1000' },
  },
});
const N = Number(values.receipts);
const MEAN_RUN = Number(values['mean-run']);
const REPEATS = Number(values.repeats);
const REVIEWERS = ['admin', 'ana', 'ben', 'cem', 'dia', 'eli'];


const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const perReceipt = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(2)} µs/receipt`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

async function createCase(dir: string): Promise<{ path: string; keys: Map<string, SigningKey> }> {
  const path = join(dir, 'bench.case.sqlite');
  const process_ = new Session({ userDataDir: join(dir, 'user'), log: () => {}, keyCost: TEST_KEY_COST });
  const session = process_.seat();
  const ok = (e: { ok: boolean }) => {
    if (!e.ok) throw new Error(JSON.stringify(e));
  };
  ok(await dispatch(handlers, session, 'case:create', { path, name: 'bench', admin: { actorId: 'admin', displayName: 'Admin', passphrase: TEST_PASSPHRASE } }));
  for (const actorId of REVIEWERS.slice(1)) {
    ok(await dispatch(handlers, session, 'actor:create', { passphrase: TEST_PASSPHRASE, actorId, displayName: actorId, role: 'reviewer', tenants: ['*'], maxClassification: 'restricted' }));
  }
  const db = session.db();
  const keyring = new Keyring(session.keysDir, readCaseMeta(db).caseId);
  const keys = new Map(REVIEWERS.map((a) => [a, keyring.unlock(db, a, TEST_PASSPHRASE, 'bench')]));
  session.close();
  return { path, keys };
}

/** Appends receipts straight into the file, hashed and signed exactly as appendReceipt does. */
function appendReceipts(path: string, keys: Map<string, SigningKey>, upTo = N): { runs: number } {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const last = db.prepare('SELECT * FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as ReceiptRow;
  const insert = db.prepare(
    `INSERT INTO audit_receipt (seq, at, actor, action, targets, body, pre_state_fp, post_state_fp, artifact_digests, prev_hash, hash, signer, signature, salt)
     VALUES (?, ?, ?, ?, ?, ?, NULL, ?, '{}', ?, ?, ?, ?, ?)`,
  );
  const random = seededRandom(20261120);
  let prevHash = last.hash;
  let prevSig = last.signature;
  let actor = last.actor;
  let runLeft = 0;
  let runs = 0;
  const start = Date.parse('2026-11-20T08:00:00.000Z');
  const batch = db.transaction((from: number, to: number) => {
    for (let seq = from; seq <= to; seq++) {
      if (runLeft === 0) {
        const others = REVIEWERS.filter((r) => r !== actor);
        actor = others[Math.floor(random() * others.length)]!;
        runLeft = Math.max(1, Math.round(-Math.log(1 - random()) * MEAN_RUN));
        runs += 1;
      }
      runLeft -= 1;
      const key = keys.get(actor)!;
      const claim = `cl-${seq % 5000}`;
      const revision = `ev-${seq % 20000}@1`;
      const row = {
        seq,
        at: new Date(start + seq * 1000).toISOString(),
        actor,
        action: 'bench:note',
        targets: `["claim:${claim}","revision:${revision}"]`,
        body: `{"claimId":"${claim}","note":"reviewed the sign-in record against the proxy log; consistent with the timeline","reason":"receipt ${seq}","revisionId":"${revision}"}`,
        pre_state_fp: null,
        post_state_fp: createHash('sha256').update(`state ${seq}`).digest('hex'),
        artifact_digests: '{}',
        signer: key.keyId,
        salt: createHash('sha256').update(`salt ${seq}`).digest('hex').slice(0, 32),
        prev_signature: prevSig,
      };
      const hash = chainHash(prevHash, receiptHashBody(row));
      const signature = key.sign(signedMessage(hash));
      insert.run(row.seq, row.at, row.actor, row.action, row.targets, row.body, row.post_state_fp, prevHash, hash, row.signer, signature, row.salt);
      prevHash = hash;
      prevSig = signature;
    }
  });
  for (let from = last.seq + 1; from <= upTo; from += 20_000) batch(from, Math.min(upTo, from + 19_999));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { runs };
}

/** The baseline: the same rows, read the same way, with only the SHA-256 chain over their bodies. */
function chainOnly(db: Database.Database): string {
  const page = db.prepare('SELECT * FROM audit_receipt WHERE seq > ? ORDER BY seq LIMIT 4096');
  let h = '0'.repeat(64);
  let after = 0;
  for (;;) {
    const rows = page.all(after) as ReceiptRow[];
    for (const r of rows) h = createHash('sha256').update(h + r.body).digest('hex');
    if (rows.length < 4096) return h;
    after = rows[rows.length - 1]!.seq;
  }
}

/** The every-signature ratio no implementation can beat here: verifications spread over all cores. */
const oneVerifyFloor = (verifyMicros: number, cores: number, baselineMs: number) => verifyMicros / cores / ((baselineMs * 1000) / N);

/** Cost of one synchronous Ed25519 verification on this machine, for reading the ratios. */
function ed25519VerifyMicros(): number {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const message = signedMessage('0'.repeat(64));
  const signature = sign(null, message, privateKey).toString('base64');
  const n = 2000;
  const start = performance.now();
  for (let i = 0; i < n; i++) verifySignature(publicKey, message, signature);
  return ((performance.now() - start) * 1000) / n;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-'));
  try {
    process.stdout.write(`audit-verify bench: ${N.toLocaleString('en')} receipts, ${REVIEWERS.length} reviewers, mean run ${MEAN_RUN}\n`);
    const { path, keys } = await createCase(dir);
    const built = time(() => appendReceipts(path, keys));
    const { runs } = built.value;
    process.stdout.write(`build: ${seconds(built.ms)} (${perReceipt(built.ms, N)}: hash + Ed25519 sign + insert), ${runs.toLocaleString('en')} runs, file ${(statSync(path).size / 1e6).toFixed(0)} MB\n`);

    const db = new Database(path, { readonly: true });
    const measure = async (label: string, repeats: number, run: () => unknown) => {
      const times: number[] = [];
      for (let i = 0; i < repeats; i++) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      const m = median(times);
      process.stdout.write(`${label}: median ${seconds(m)} of ${repeats} [${times.map(seconds).join(', ')}] (${perReceipt(m, N)})\n`);
      return m;
    };
    const verify = (options: VerifyOptions) => async () => {
      const v = await verifyChainAsync(db, options);
      if (!v.ok || v.length !== N) throw new Error(`bench chain did not verify: ${JSON.stringify(v.firstBroken)}`);
    };
    const baseline = await measure('baseline (SHA-256 chain over bodies)', REPEATS, () => void chainOnly(db));
    let reached: ResumePoint | null = null;
    const runEnds = await measure('verifyChain, signatures at run ends', REPEATS, verify({ signatures: 'run-ends', reached: (p) => (reached = p) }));
    const every = values['skip-every'] ? null : await measure('verifyChain, every signature', 1, verify({ signatures: 'every' }));
    const caseId = readCaseMeta(db).caseId;
    db.close();

    // Day to day: this machine verified through the head; then more receipts arrive.
    const fresh = Number(values['routine-new']);
    const marks = new VerificationMarks(join(dir, 'verified'));
    marks.record(caseId, reached!, new Date().toISOString());
    appendReceipts(path, keys, N + fresh);
    const grown = new Database(path, { readonly: true });
    const routineTimes: number[] = [];
    for (let i = 0; i < Math.max(REPEATS, 5); i++) {
      const start = performance.now();
      const mark = marks.usableMark(grown, caseId);
      if (!mark) throw new Error('bench: the mark at the old head was not usable');
      const v = await verifyChainAsync(grown, { signatures: 'every', resume: mark });
      routineTimes.push(performance.now() - start);
      if (!v.ok || v.length !== N + fresh || v.signatures.verified !== fresh) throw new Error(`bench routine verify: ${JSON.stringify(v.firstBroken)} ${v.signatures.verified}`);
    }
    grown.close();
    const routine = median(routineTimes);
    process.stdout.write(
      `routine verify after ${fresh.toLocaleString('en')} new receipts on ${N.toLocaleString('en')} (every signature of the new ones): median ${(routine).toFixed(1)} ms of ${routineTimes.length} [${routineTimes.map((t) => t.toFixed(1)).join(', ')}]\n`,
    );

    const oneVerify = ed25519VerifyMicros();
    process.stdout.write(`\nratio run-ends / baseline: ${(runEnds / baseline).toFixed(2)}x (${runs.toLocaleString('en')} signature checks, mean run ${MEAN_RUN})\n`);
    if (every !== null) {
      const cores = availableParallelism();
      const floor = oneVerifyFloor(oneVerify, cores, baseline);
      process.stdout.write(
        `ratio every    / baseline: ${(every / baseline).toFixed(2)}x (${N.toLocaleString('en')} signature checks); ` +
          `the floor on ${cores} cores (one Ed25519 verification per receipt, spread perfectly) is ${floor.toFixed(2)}x, so this is ${((floor / (every / baseline)) * 100).toFixed(0)}% of the best possible here\n`,
      );
    }
    process.stdout.write(`ratio routine / full chain walk: ${(routine / baseline).toFixed(3)}x; goal: routine under 1 s: ${routine < 1000 ? 'met' : 'missed'} (${(routine / 1000).toFixed(2)} s)\n`);
    process.stdout.write(
      `one Ed25519 verification: ${oneVerify.toFixed(0)} µs on one core here, ${((oneVerify / (baseline * 1000 / N)) ).toFixed(0)}x the baseline's cost per receipt;\n` +
        `goal < 2x baseline: run-ends ${runEnds / baseline < 2 ? 'meets' : 'misses'} it${every === null ? '' : `, every-signature mode ${every / baseline < 2 ? 'meets' : 'misses'} it`}.\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
