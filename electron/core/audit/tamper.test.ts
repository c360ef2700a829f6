import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCaseFile } from './verifyFile';
import { chainHash, GENESIS_HASH, receiptHashBody } from './receipts';
import { allReceipts, buildRealisticCase, openAsAttacker, rehashFrom, shiftUp } from '../../testing/tamper';
import { verifyChain } from './verify';
import { IN_MUTATION_RUN } from '../../testing/mutationRun';

let pristine: string;
let head: string;
let work: string;
let cleanup: () => void;
let n: number;
/** For state edits: which receipt each table row must be traced back to (read from the pristine file). */
let oracle: { bindings: { id: number; seq: number }[]; revisions: { id: string; seq: number }[]; decisions: { id: string; seq: number }[]; votes: { id: number; seq: number }[]; actors: { id: string; seq: number }[] };

beforeAll(async () => {
  const built = await buildRealisticCase();
  ({ head, cleanup } = built);
  pristine = built.path;
  work = mkdtempSync(join(tmpdir(), 'erwb-tamper-'));
  const db = openAsAttacker(copyTo('oracle.sqlite'));
  n = (db.prepare('SELECT MAX(seq) AS n FROM audit_receipt').get() as { n: number }).n;
  const latest = (prefix: string, actions: string[]) =>
    db
      .prepare(`SELECT substr(json_extract(targets, '$[0]'), ${prefix.length + 1}) AS id, MAX(seq) AS seq FROM audit_receipt WHERE json_extract(targets, '$[0]') LIKE ? AND action IN (${actions.map(() => '?').join(',')}) GROUP BY 1 ORDER BY 1`)
      .all(`${prefix}%`, ...actions) as { id: string; seq: number }[];
  oracle = {
    bindings: db.prepare(`SELECT b.binding_id AS id, r.seq FROM claim_binding b JOIN audit_receipt r ON r.action = 'claim:bind' AND json_extract(r.body, '$.claimId') = b.claim_id AND json_extract(r.body, '$.revisionId') = b.revision_id ORDER BY 1`).all() as { id: number; seq: number }[],
    revisions: db.prepare(`SELECT json_extract(body, '$.revisionId') AS id, seq FROM audit_receipt WHERE action = 'evidence:ingest' ORDER BY seq`).all() as { id: string; seq: number }[],
    decisions: latest('decision:', ['decision:propose', 'decision:approve', 'decision:reject']),
    votes: latest('vote:', ['review:vote']).map((v) => ({ id: Number(v.id), seq: v.seq })),
    actors: latest('actor:', ['actor:create']),
  };
  db.close();
  expect(n).toBeGreaterThan(250);
  // The oracle must really cover every kind of row, or the state edits below would test nothing.
  for (const [k, rows] of Object.entries(oracle)) expect(rows.length, k).toBeGreaterThan(5);
}, 120_000);
afterAll(() => {
  cleanup?.();
  if (work) rmSync(work, { recursive: true, force: true });
});

let copies = 0;
function copyTo(name = `case-${copies++}.sqlite`): string {
  const target = join(work, name);
  copyFileSync(pristine, target);
  return target;
}

const TEXT_COLUMNS = ['at', 'actor', 'action', 'targets', 'body', 'pre_state_fp', 'post_state_fp', 'artifact_digests', 'prev_hash', 'hash', 'signer', 'signature'] as const;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

type Mutation =
  | { kind: 'edit'; seq: number; column: (typeof TEXT_COLUMNS)[number]; pos: number; ch: number }
  | { kind: 'delete'; seq: number }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'renumber'; seq: number }
  | { kind: 'insert'; at: number; template: number }
  | { kind: 'forge'; seq: number; pos: number; ch: number }
  | { kind: 'state'; table: 'binding' | 'content' | 'decision' | 'vote' | 'role'; pick: number };

/** Changes one character of `text` (or fills a null) so the value is certainly different. */
function changeChar(text: string | null, pos: number, ch: number): string {
  if (text === null || text.length === 0) return 'f'.repeat(64);
  const i = pos % text.length;
  let c = ALPHABET[ch % ALPHABET.length]!;
  if (c === text[i]) c = ALPHABET[(ch + 1) % ALPHABET.length]!;
  return text.slice(0, i) + c + text.slice(i + 1);
}

/** Applies a mutation to a copy and answers the seq verification must name first. */
function apply(path: string, m: Mutation): number {
  const db = openAsAttacker(path);
  try {
    switch (m.kind) {
      case 'edit': {
        const row = db.prepare(`SELECT ${m.column} AS v FROM audit_receipt WHERE seq = ?`).get(m.seq) as { v: string | null };
        db.prepare(`UPDATE audit_receipt SET ${m.column} = ? WHERE seq = ?`).run(changeChar(row.v, m.pos, m.ch), m.seq);
        return m.seq;
      }
      case 'delete':
        db.prepare('DELETE FROM audit_receipt WHERE seq = ?').run(m.seq);
        return m.seq;
      case 'swap':
        db.prepare('UPDATE audit_receipt SET seq = -1 WHERE seq = ?').run(m.a);
        db.prepare('UPDATE audit_receipt SET seq = ? WHERE seq = ?').run(m.a, m.b);
        db.prepare('UPDATE audit_receipt SET seq = ? WHERE seq = -1').run(m.b);
        return Math.min(m.a, m.b);
      case 'renumber':
        db.prepare('UPDATE audit_receipt SET seq = ? WHERE seq = ?').run(n + 500, m.seq);
        return m.seq;
      case 'insert': {
        // A well-formed receipt in someone's name: correct seq, prev_hash and hash, but the
        // attacker has no private key, so the signature is one copied from another receipt.
        const rows = allReceipts(db);
        const template = rows[m.template - 1]!;
        const prev = rows[m.at - 2];
        shiftUp(db, m.at);
        const forged = { ...template, seq: m.at, at: '2026-11-21T03:00:00.000Z', body: JSON.stringify({ forged: true }) };
        const hash = chainHash(prev?.hash ?? GENESIS_HASH, receiptHashBody({ ...forged, prev_signature: prev?.signature ?? null }));
        db.prepare(
          `INSERT INTO audit_receipt (seq, at, actor, action, targets, body, pre_state_fp, post_state_fp, artifact_digests, prev_hash, hash, signer, signature)
           VALUES (@seq, @at, @actor, @action, @targets, @body, @pre_state_fp, @post_state_fp, @artifact_digests, @prev_hash, @hash, @signer, @signature)`,
        ).run({ ...forged, prev_hash: prev?.hash ?? GENESIS_HASH, hash });
        return m.at;
      }
      case 'forge': {
        const row = db.prepare('SELECT body FROM audit_receipt WHERE seq = ?').get(m.seq) as { body: string };
        db.prepare('UPDATE audit_receipt SET body = ? WHERE seq = ?').run(changeChar(row.body, m.pos, m.ch), m.seq);
        rehashFrom(db, m.seq);
        return m.seq;
      }
      case 'state': {
        const pick = <T>(list: T[]) => list[m.pick % list.length]!;
        switch (m.table) {
          case 'binding': {
            const b = pick(oracle.bindings);
            db.prepare(`UPDATE claim_binding SET relation = CASE relation WHEN 'REFUTES' THEN 'FULL_SUPPORT' ELSE 'REFUTES' END WHERE binding_id = ?`).run(b.id);
            return b.seq;
          }
          case 'content': {
            const r = pick(oracle.revisions);
            db.prepare(`UPDATE evidence_revision SET content = content || ' (edited)' WHERE revision_id = ?`).run(r.id);
            return r.seq;
          }
          case 'decision': {
            const d = pick(oracle.decisions);
            db.prepare(`UPDATE decision SET verdict = CASE verdict WHEN 'SUPPORTED' THEN 'REFUTED' ELSE 'SUPPORTED' END WHERE decision_id = ?`).run(d.id);
            return d.seq;
          }
          case 'vote': {
            const v = pick(oracle.votes);
            db.prepare('UPDATE review_vote SET refuted = CASE refuted WHEN 1 THEN 0 ELSE 1 END WHERE vote_id = ?').run(v.id);
            return v.seq;
          }
          case 'role': {
            const a = pick(oracle.actors);
            db.prepare(`UPDATE actor SET role = CASE role WHEN 'admin' THEN 'reviewer' ELSE 'admin' END WHERE actor_id = ?`).run(a.id);
            return a.seq;
          }
        }
      }
    }
  } finally {
    db.close();
  }
}

const seqArb = () => fc.integer({ min: 1, max: n });
const mutationArb = (): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ kind: fc.constant('edit' as const), seq: seqArb(), column: fc.constantFrom(...TEXT_COLUMNS), pos: fc.nat(), ch: fc.nat() }),
    fc.record({ kind: fc.constant('delete' as const), seq: seqArb() }),
    fc.record({ kind: fc.constant('swap' as const), a: seqArb(), b: seqArb() }).filter((s) => s.a !== s.b),
    fc.record({ kind: fc.constant('renumber' as const), seq: seqArb() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.integer({ min: 1, max: n + 1 }), template: seqArb() }),
    fc.record({ kind: fc.constant('forge' as const), seq: seqArb(), pos: fc.nat(), ch: fc.nat() }),
    fc.record({ kind: fc.constant('state' as const), table: fc.constantFrom('binding' as const, 'content' as const, 'decision' as const, 'vote' as const, 'role' as const), pick: fc.nat() }),
  );

describe('tampering with a case file', () => {
  it('an untouched file verifies, against its head too, in both signature modes', async () => {
    for (const signatures of ['every', 'run-ends'] as const) {
      const result = await verifyCaseFile(pristine, { expectedHead: head, signatures });
      expect(result.summary).toContain('audit chain verifies');
      expect(result.exitCode).toBe(0);
      expect(result.verification!.length).toBe(n);
      expect(result.verification!.fingerprints.checked).toBeGreaterThan(n / 2);
    }
  });

  it('100 random edits, deletions, reorderings, insertions and table edits each fail at the first affected seq', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(mutationArb(), fc.constantFrom('every' as const, 'run-ends' as const), async (m, signatures) => {
        const path = copyTo();
        const expected = apply(path, m);
        const result = await verifyCaseFile(path, { expectedHead: head, signatures });
        // The synchronous walk (used by the completion gate) must reach the same verdict.
        const db = new Database(path, { readonly: true });
        const sync = verifyChain(db, { expectedHead: head, signatures });
        db.close();
        rmSync(path, { force: true });
        for (const f of ['-wal', '-shm']) rmSync(`${path}${f}`, { force: true });
        expect(sync.firstBroken).toEqual(result.verification!.firstBroken);
        seen.add(m.kind);
        expect(result.exitCode, result.summary).toBe(1);
        expect(result.verification!.firstBroken!.seq, `${JSON.stringify(m)}: ${result.summary}`).toBe(expected);
      }),
      { seed: 20261120, numRuns: 100, endOnFailure: true },
    );
    expect([...seen].sort()).toEqual(['delete', 'edit', 'forge', 'insert', 'renumber', 'state', 'swap']);
  });

  it('a chain re-hashed after an edit, without the private key, fails the signature check at the edited seq', async () => {
    const path = copyTo();
    const target = Math.floor(n / 2);
    const db = openAsAttacker(path);
    db.prepare(`UPDATE audit_receipt SET body = json_set(body, '$.forged', 1) WHERE seq = ?`).run(target);
    rehashFrom(db, target);
    db.close();
    for (const signatures of ['every', 'run-ends'] as const) {
      const v = (await verifyCaseFile(path, { signatures })).verification!;
      expect(v.firstBroken).toMatchObject({ seq: target, kind: 'signature' });
    }
  });

  it('a truncated tail is named exactly against the head printed before, and caught by what it leaves behind without one', async () => {
    const path = copyTo();
    const db = openAsAttacker(path);
    db.prepare('DELETE FROM audit_receipt WHERE seq > ?').run(n - 3);
    db.close();
    // The last receipts created claim cl-last; the claim is still there, with nothing naming it.
    const alone = (await verifyCaseFile(path)).verification!;
    expect(alone.ok).toBe(false);
    expect(alone.firstBroken!.kind).toBe('state');
    const v = (await verifyCaseFile(path, { expectedHead: head })).verification!;
    expect(v.firstBroken).toMatchObject({ seq: n - 2, kind: 'head' });
    expect(v.firstBroken!.reason).toContain('truncated');
  });

  it.skipIf(IN_MUTATION_RUN)('cli verify opens the file read-only, leaves it byte for byte alone, and exits non-zero naming the seq', () => {
    const cli = resolve(import.meta.dirname, '../../host/cli.ts');
    const tsx = resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const run = (...args: string[]) =>
      spawnSync(tsx, [cli, 'verify', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ERWB_USER_DATA: join(work, 'user') } });
    const clean = copyTo('clean.sqlite');
    const mtime = statSync(clean).mtimeMs;
    const ok = run(clean, '--head', head);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('audit chain verifies');
    expect(statSync(clean).mtimeMs).toBe(mtime);
    expect(readdirSync(work).filter((f) => f.startsWith('clean.sqlite'))).toEqual(['clean.sqlite']);
    // This machine now holds a mark at the head: --routine resumes there and has nothing new to check.
    const routine = run(clean, '--routine');
    expect(routine.status, routine.stderr).toBe(0);
    expect(routine.stderr).toMatch(/audit chain verifies \(routine: nothing added since this machine verified through seq \d+/);
    expect(JSON.parse(routine.stdout).verification.signatures.verified).toBe(0);

    const broken = copyTo('broken.sqlite');
    const expected = apply(broken, { kind: 'edit', seq: 42, column: 'body', pos: 3, ch: 7 });
    const bad = run(broken);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`BROKEN at seq ${expected}`);
    expect(JSON.parse(bad.stdout).verification.firstBroken.seq).toBe(expected);

    const notCase = join(work, 'not-a-case.sqlite');
    copyFileSync(resolve(import.meta.dirname, '../../../package.json'), notCase);
    const refused = run(notCase);
    expect(refused.status).toBe(3);
    expect(existsSync(`${notCase}-wal`)).toBe(false);
  }, 120_000);
});
