import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFullCase } from '../../testing/fullCase';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { caseRows, replicaMachine } from '../../testing/replicaMachine';
import { useTeamServer } from '../../testing/teamServer';
import { writeGeneratedBundle } from '../../testing/generatedBundle';
import { verifyCaseFile } from '../audit/verifyFile';
import { marksOf } from '../audit/verifyMarks';
import { readCaseMeta } from '../services/caseMeta';
import { openCaseFile } from '../store/caseFile';
import { publishCase, pushCase } from './publish';
import { cloneCase, pullCase } from './replica';
import { receiptScopes } from './receiptScope';
import { appendReceipts, appendRowsAtHead, createTeamCase, GENESIS_HEAD, readRowPart, rowPoints } from './teamStore';
import type { ReceiptRow } from '../audit/receipts';

const server = useTeamServer();
let admin: pg.Client;
let dir: string;
beforeAll(() => {
  ({ admin } = server);
  dir = mkdtempSync(join(tmpdir(), 'erwb-replica-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cloning a case', () => {
  it('makes a case file with exactly the rows of the published one (a case with rows in every table), which verifies', async () => {
    const full = await buildFullCase();
    try {
      const db = openCaseFile(full.path);
      const { caseId } = readCaseMeta(db);
      await publishCase(db, admin);
      db.close();
      const clone = join(dir, 'clone.case.sqlite');
      const result = await cloneCase(admin, caseId, clone);
      expect(result.pulled).toBeGreaterThan(0);
      expect(caseRows(clone)).toEqual(caseRows(full.path));
      const verified = await verifyCaseFile(clone);
      expect(verified.exitCode, verified.summary).toBe(0);
    } finally {
      full.cleanup();
    }
  });
});

describe('a case published and cloned in parts', () => {
  it('keeps the row images in parts of bounded size, and a clone applies them part by part to the same rows', async () => {
    const full = await buildFullCase();
    try {
      const db = openCaseFile(full.path);
      const { caseId } = readCaseMeta(db);
      await publishCase(db, admin, { partChars: 5_000 });
      db.close();
      const { rows: parts } = await admin.query<{ part: number; size: number }>(
        'SELECT part, length(images) AS size FROM erwb.team_rows WHERE case_id = $1 ORDER BY through_seq, part', [caseId]);
      expect(parts.length).toBeGreaterThan(3);
      expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => i));
      // Each part holds at most its share, unless one row alone is longer.
      for (const p of parts.slice(0, -1)) expect(p.size).toBeLessThanOrEqual(5_000 + 5_000);
      const point = await admin.query<{ parts: number }>('SELECT parts FROM erwb.team_rows_point WHERE case_id = $1', [caseId]);
      expect(point.rows).toEqual([{ parts: parts.length }]);
      const clone = join(dir, 'parts.case.sqlite');
      await cloneCase(admin, caseId, clone);
      expect(caseRows(clone)).toEqual(caseRows(full.path));
      expect((await verifyCaseFile(clone)).exitCode).toBe(0);

      // A part the server counts but no longer holds: the clone is refused and leaves no file.
      await admin.query('ALTER TABLE erwb.team_rows DISABLE TRIGGER team_rows_append_only');
      try {
        await admin.query('DELETE FROM erwb.team_rows WHERE case_id = $1 AND part = 2', [caseId]);
      } finally {
        await admin.query('ALTER TABLE erwb.team_rows ENABLE TRIGGER team_rows_append_only');
      }
      const missing = join(dir, 'missing-part.case.sqlite');
      await expect(cloneCase(admin, caseId, missing)).rejects.toThrow(`team clone: the server is missing part 3 of ${parts.length} of the rows pushed at seq`);
      expect(readdirSync(dir).filter((f) => f.startsWith('missing-part'))).toEqual([]);
    } finally {
      full.cleanup();
    }
  });

  it('keeps one empty part for rows sent with none (a point always has its parts)', async () => {
    const c = await createReviewCase();
    try {
      await c.evidence('ev-1');
      const db = c.session.db();
      const { caseId } = readCaseMeta(db);
      // The receipts alone, then the head's rows with no image in them.
      await createTeamCase(admin, caseId, 'no rows');
      const receipts = db.prepare('SELECT * FROM audit_receipt ORDER BY seq').all() as ReceiptRow[];
      const scopes = receiptScopes(db, receipts);
      const head = await appendReceipts(admin, caseId, GENESIS_HEAD, receipts.map((r, i) => ({ ...r, scope: scopes[i]! })));
      await appendRowsAtHead(admin, caseId, head, { parts: [] });
      expect(await rowPoints(admin, caseId, 0, head.seq)).toEqual({ points: [{ throughSeq: head.seq, parts: 1 }], unreadable: 0 });
      expect(await readRowPart(admin, caseId, head.seq, 0)).toBe('');
      expect(await readRowPart(admin, caseId, head.seq, 1)).toBeNull();
    } finally {
      c.cleanup();
    }
  });

  it('refuses a clone when the server leaves a receipt out, and leaves no file', async () => {
    const c = await createReviewCase();
    try {
      await c.evidence('ev-gap');
      const { caseId } = readCaseMeta(c.session.db());
      await publishCase(c.session.db(), admin);
      // Someone with the server's superuser removes receipt 3, bypassing its triggers and foreign keys.
      await admin.query(`SET session_replication_role = replica`);
      try {
        await admin.query('DELETE FROM erwb.team_receipt_body WHERE case_id = $1 AND seq = 3', [caseId]);
        await admin.query('DELETE FROM erwb.team_receipt WHERE case_id = $1 AND seq = 3', [caseId]);
      } finally {
        await admin.query('RESET session_replication_role');
      }
      const gap = join(dir, 'gap.case.sqlite');
      await expect(cloneCase(admin, caseId, gap)).rejects.toThrow('team clone: the server sent receipt seq 4 where seq 3 belongs; nothing was written');
      expect(readdirSync(dir).filter((f) => f.startsWith('gap'))).toEqual([]);
    } finally {
      c.cleanup();
    }
  });

  it('pushes one snapshot: a write made while the push runs goes with the next push, and the rows on the server match its receipts', async () => {
    const c = await createReviewCase();
    try {
      await c.evidence('ev-s1');
      const { caseId } = readCaseMeta(c.session.db());
      const published = (await publishCase(c.session.db(), admin)).head.seq;
      for (const id of ['ev-s2', 'ev-s3', 'ev-s4']) await c.evidence(id);
      const before = c.session.db().prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number;
      let during: Promise<unknown> | null = null;
      let landedDuringPush = false;
      const first = await pushCase(c.session.db(), admin, {
        batch: 1,
        onProgress: () => {
          // After the first batch, another action on the case through its own connection.
          during ??= c.evidence('ev-during');
          landedDuringPush ||= (c.session.db().prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number) > before;
        },
      });
      await during;
      expect(landedDuringPush).toBe(true);
      expect(first).toMatchObject({ pushed: before - published, total: before - published, head: { seq: before } });
      const clone = join(dir, 'snapshot.case.sqlite');
      await cloneCase(admin, caseId, clone);
      expect((await verifyCaseFile(clone)).exitCode).toBe(0);
      const revisions = (path: string) => {
        const db = openCaseFile(path);
        try {
          return db.prepare('SELECT evidence_id FROM evidence_revision ORDER BY evidence_id').pluck().all();
        } finally {
          db.close();
        }
      };
      expect(revisions(clone)).toEqual(['ev-s1', 'ev-s2', 'ev-s3', 'ev-s4']);
      expect((await pushCase(c.session.db(), admin)).pushed).toBeGreaterThan(0);
      const again = join(dir, 'snapshot-2.case.sqlite');
      await cloneCase(admin, caseId, again);
      expect(revisions(again)).toEqual(['ev-during', 'ev-s1', 'ev-s2', 'ev-s3', 'ev-s4']);
      expect(caseRows(again)).toEqual(caseRows(c.casePath));
    } finally {
      c.cleanup();
    }
  });
});

describe('imports, whose receipts are signed once at the run end', () => {
  // The seeded bundle grows by three evidence and their bindings: the second import adds only those.
  const importBundle = (rc: ReviewCase, evidence: number) => rc.call('bundle:import', { path: writeGeneratedBundle(rc.dir, 1, 20261207, evidence) });

  it('publish and clone (verified whole), then push and pull (verified by what changed): both files verify', async () => {
    const rc = await createReviewCase();
    const marks = marksOf(join(dir, 'import-marks'));
    try {
      await importBundle(rc, 3);
      const db = rc.session.db();
      const { caseId } = readCaseMeta(db);
      await publishCase(db, admin);
      const clone = join(dir, 'imported.case.sqlite');
      expect(await cloneCase(admin, caseId, clone, { marks })).toMatchObject({ verified: 'whole' });
      await importBundle(rc, 6);
      await pushCase(db, admin);
      const replica = openCaseFile(clone);
      try {
        // Three ingests, three bindings and the audit:sign that signs for them.
        expect(await pullCase(replica, admin, { marks })).toMatchObject({ pulled: 7, verified: 'changes' });
      } finally {
        replica.close();
      }
      const unsigned = (path: string) => {
        const file = new Database(path, { readonly: true });
        try {
          return file.prepare('SELECT COUNT(*) FROM audit_receipt WHERE signature IS NULL').pluck().get();
        } finally {
          file.close();
        }
      };
      // The first import's claim, 3 ingests and 3 bindings, then the second's 6.
      expect(unsigned(clone)).toBe(13);
      expect(caseRows(clone)).toEqual(caseRows(rc.casePath));
      const verified = await verifyCaseFile(clone);
      expect(verified.exitCode, verified.summary).toBe(0);
    } finally {
      rc.cleanup();
    }
  });
});

describe('two replicas of one case', () => {
  let a: ReviewCase;
  let caseId: string;
  let bPath: string;
  beforeAll(async () => {
    a = await createReviewCase();
    await a.evidence('ev-1');
    await a.claim('cl-1');
    await a.bind('cl-1', 'ev-1@1');
    caseId = readCaseMeta(a.session.db()).caseId;
    await publishCase(a.session.db(), admin);
    bPath = join(dir, 'b.case.sqlite');
    await cloneCase(admin, caseId, bPath);
  });
  afterAll(() => a?.cleanup());

  it('carries four eyes across two machines: proposed on one, approved on the other, the same case on both', async () => {
    const b = replicaMachine(dir, bPath, join(a.dir, 'user'));
    await b.work('carol', async (m) => {
      // Machine A: bob proposes.
      a.as('bob');
      const proposed = await a.call('decision:propose', { claimId: 'cl-1', verdict: 'SUPPORTED', rationale: 'the proxy log shows the beacon' });
      expect((await pushCase(a.session.db(), admin)).pushed).toBe(1);

      // Machine B pulls and carol approves there; bob could not approve his own proposal on either machine.
      expect(await pullCase(m.seat.db(), admin)).toMatchObject({ pulled: 1 });
      m.as('bob');
      await expect(m.call('decision:approve', { decisionId: proposed.decisionId, fingerprint: proposed.fingerprint })).rejects.toThrow(/FORBIDDEN|CONFLICT/);
      m.as('carol');
      await m.call('decision:approve', { decisionId: proposed.decisionId, fingerprint: proposed.fingerprint });
      await m.call('evidence:ingest', {
        evidenceId: 'ev-b', title: 'Seen from B', kind: 'log_record', content: 'beacon seen again from machine B',
        context: {
          sourceType: 'proxy', sourceRef: 'proxy://acme/b', sourceVersion: '1', observedAt: '2026-11-19T23:00:00.000Z', effectiveFrom: '2026-11-19T23:00:00.000Z',
          validUntil: null, producerType: 'tool', producer: 'squid', tenant: 'acme', classification: 'internal', trustTier: 'trusted', confidence: 0.8,
          independenceGroup: 'proxy-b', validationMethod: 'hash-and-source-check', appliesTo: ['acme'],
        },
      });
      const fromB = await pushCase(m.seat.db(), admin);
      expect(fromB.pushed).toBe(2);

      // Machine A pulls: the decision is approved there too, and both files hold the same case.
      expect(await pullCase(a.session.db(), admin)).toMatchObject({ pulled: 2, head: fromB.head.seq });
      expect(await a.call('decision:get', { decisionId: proposed.decisionId })).toMatchObject({ status: 'APPROVED' });
      expect(caseRows(a.casePath)).toEqual(caseRows(bPath));
      for (const path of [a.casePath, bPath]) expect((await verifyCaseFile(path)).exitCode).toBe(0);
      // In step: nothing more to pull on either side.
      expect(await pullCase(a.session.db(), admin)).toMatchObject({ pulled: 0 });
      expect(await pullCase(m.seat.db(), admin)).toMatchObject({ pulled: 0 });
    });
  });

  it('refuses rows the receipts do not say, and leaves the replica as it was', async () => {
    a.as('admin');
    await a.evidence('ev-2');
    await pushCase(a.session.db(), admin);
    // Someone with the server's owner role edits the evidence text in the pushed row images.
    const point = await admin.query<{ through_seq: string; images: string }>('SELECT through_seq, images FROM erwb.team_rows WHERE case_id = $1 ORDER BY through_seq DESC LIMIT 1', [caseId]);
    const { through_seq, images } = point.rows[0]!;
    expect(images).toContain('ev-2@1');
    await admin.query('ALTER TABLE erwb.team_rows DISABLE TRIGGER team_rows_append_only');
    try {
      await admin.query('UPDATE erwb.team_rows SET images = replace(images, $3, $4) WHERE case_id = $1 AND through_seq = $2', [caseId, through_seq, 'sign-in svc-backup', 'sign-in svc-nobody']);
    } finally {
      await admin.query('ALTER TABLE erwb.team_rows ENABLE TRIGGER team_rows_append_only');
    }
    await replicaMachine(dir, bPath, join(a.dir, 'user')).work('carol', async (m) => {
      const before = caseRows(bPath);
      await expect(pullCase(m.seat.db(), admin)).rejects.toThrow(/team pull: what the server sent does not verify \(seq \d+: .*\); nothing was written/);
      expect(caseRows(bPath)).toEqual(before);
    });
    // A fresh clone of it is refused the same way, and leaves no file (nor journal) behind.
    const fresh = join(dir, 'fresh.case.sqlite');
    await expect(cloneCase(admin, caseId, fresh)).rejects.toThrow(/team clone: what the server sent does not verify/);
    expect(readdirSync(dir).filter((f) => f.startsWith('fresh.case.sqlite'))).toEqual([]);
  });

  it('refuses to pull over receipts made on a head the server moved past, writing nothing', async () => {
    await a.evidence('ev-3');
    await pushCase(a.session.db(), admin);
    await replicaMachine(dir, bPath, join(a.dir, 'user')).work('carol', async (m) => {
      await m.call('claim:create', { claimId: 'cl-b', statement: 'made offline on B', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal' });
      const before = caseRows(bPath);
      await expect(pullCase(m.seat.db(), admin)).rejects.toThrow(/has 1 receipts .* made on a head the server has moved past/);
      await expect(pushCase(m.seat.db(), admin)).rejects.toThrow(/pull first/);
      expect(caseRows(bPath)).toEqual(before);
    });
  });
});

describe('pulling receipts the server altered', () => {
  it('refuses a receipt whose signature the server replaced (the last of a run, the one a pull checks), writing nothing', async () => {
    const c = await createReviewCase();
    try {
      await c.evidence('ev-1');
      await publishCase(c.session.db(), admin);
      const id = readCaseMeta(c.session.db()).caseId;
      const replica = join(dir, 'signed.case.sqlite');
      await cloneCase(admin, id, replica);
      c.as('admin');
      await c.evidence('ev-2');
      const pushed = await pushCase(c.session.db(), admin);
      const last = pushed.head.seq;
      // Someone with the server's owner role gives the last receipt the signature of the one before it.
      await admin.query('ALTER TABLE erwb.team_receipt DISABLE TRIGGER team_receipt_append_only');
      try {
        await admin.query(
          'UPDATE erwb.team_receipt SET signature = (SELECT signature FROM erwb.team_receipt WHERE case_id = $1 AND seq = $2 - 1) WHERE case_id = $1 AND seq = $2',
          [id, last],
        );
      } finally {
        await admin.query('ALTER TABLE erwb.team_receipt ENABLE TRIGGER team_receipt_append_only');
      }
      const before = caseRows(replica);
      const db = openCaseFile(replica);
      try {
        await expect(pullCase(db, admin)).rejects.toThrow(new RegExp(`what the server sent does not verify \\(seq ${last}: the signature does not verify`));
      } finally {
        db.close();
      }
      expect(caseRows(replica)).toEqual(before);
    } finally {
      c.cleanup();
    }
  });
});
