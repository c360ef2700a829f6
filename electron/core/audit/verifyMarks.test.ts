import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { verifyCaseFile } from './verifyFile';
import { VerificationMarks } from './verifyMarks';

/**
 * Issue 9: day-to-day verification resumes from where this machine's last verification ended
 * ("verified through seq N at head H"), and a full verification stays one flag away.
 */
let rc: ReviewCase;
let marks: VerificationMarks;
beforeEach(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-1@1');
  marks = new VerificationMarks(join(rc.dir, 'verified'));
});
afterEach(() => rc.cleanup());

const receipts = () => rc.session.db().prepare('SELECT MAX(seq) FROM audit_receipt').pluck().get() as number;
const raw = (sql: string, ...params: unknown[]) => {
  const db = new Database(rc.casePath);
  db.exec('DROP TRIGGER IF EXISTS audit_receipt_no_update; DROP TRIGGER IF EXISTS claim_no_update');
  db.prepare(sql).run(...params);
  db.close();
};

describe('routine verification', () => {
  it('checks only the receipts appended since the mark, and says so', async () => {
    const first = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(first.verification).toMatchObject({ ok: true, routine: null }); // no mark yet: in full
    expect(first.summary).toContain('audit chain verifies (full): ');
    const marked = receipts();
    for (let i = 0; i < 5; i++) await rc.claim(`cl-more-${i}`);
    const second = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(second.verification).toMatchObject({ ok: true, length: receipts(), routine: { since: marked } });
    expect(second.verification!.signatures.verified).toBe(receipts() - marked);
    expect(second.summary).toContain(`routine: receipts ${marked + 1}..${receipts()}`);
    // Nothing new: nothing to check, still verified through the head.
    const third = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(third.verification).toMatchObject({ ok: true, routine: { since: receipts() } });
    expect(third.verification!.signatures.verified).toBe(0);
    expect(third.summary).toContain(`(routine: nothing added since this machine verified through seq ${receipts()} (`);
    expect(third.notes).toEqual([]);
  });

  it('catches an edit to a receipt after the mark, and to a row such a receipt recorded', async () => {
    await verifyCaseFile(rc.casePath, { marks });
    await rc.claim('cl-new');
    const seq = receipts();
    raw("UPDATE claim SET statement = 'edited behind the receipt' WHERE claim_id = 'cl-new'");
    const v = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(v.verification).toMatchObject({ ok: false, routine: { since: seq - 1 }, firstBroken: { seq, kind: 'state' } });

    raw("UPDATE audit_receipt SET body = replace(body, 'cl-new', 'cl-NEW') WHERE seq = ?", seq);
    const w = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(w.verification).toMatchObject({ ok: false, firstBroken: { seq, kind: 'chain' } });
  });

  it('verifies in full when the receipt at the mark changed (a rewritten chain), or the record was edited', async () => {
    await verifyCaseFile(rc.casePath, { marks });
    const head = receipts();
    // Rewritten at the mark: its hash is not the one verified, so nothing is resumed from it.
    raw('UPDATE audit_receipt SET hash = ? WHERE seq = ?', 'f'.repeat(64), head);
    const v = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(v.verification).toMatchObject({ ok: false, routine: null, firstBroken: { seq: head } });
  });

  it('ignores an edited record: an attacker cannot move the mark past their edit', async () => {
    await verifyCaseFile(rc.casePath, { marks });
    const file = join(rc.dir, 'verified', readdirSync(join(rc.dir, 'verified')).find((f) => f.endsWith('.json'))!);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { marks: string; mac: string };
    const forged = (JSON.parse(record.marks) as { seq: number }[]).map((m) => ({ ...m, seq: m.seq + 0 }));
    writeFileSync(file, JSON.stringify({ marks: JSON.stringify(forged).replace('"markedAt":"', '"markedAt":"1'), mac: record.mac }));
    expect(marks.marks(rc.session.db().prepare("SELECT value FROM case_meta WHERE key = 'case_id'").pluck().get() as string)).toEqual([]);
    const v = await verifyCaseFile(rc.casePath, { marks, routine: true });
    expect(v.verification).toMatchObject({ ok: true, routine: null });
  });

  it('keeps its MAC key and its marks readable by this user only, in a folder only they can enter', async () => {
    await verifyCaseFile(rc.casePath, { marks });
    const dir = join(rc.dir, 'verified');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '.mark-key')).mode & 0o777).toBe(0o600);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  });

  it('resumes from the furthest mark the file still holds, not the one recorded last (an older copy verified since)', () => {
    const db = rc.session.db();
    const at = db.prepare('SELECT hash, signature FROM audit_receipt WHERE seq = ?');
    const point = (seq: number) => ({ seq, ...(at.get(seq) as { hash: string; signature: string }), sealed: true, keys: [], admins: [], rootKey: null, exactTimes: true });
    const caseId = db.prepare("SELECT value FROM case_meta WHERE key = 'case_id'").pluck().get() as string;
    const head = receipts();
    marks.record(caseId, point(head), '2026-12-05T10:00:00.000Z');
    marks.record(caseId, point(head - 2), '2026-12-05T11:00:00.000Z');
    expect(marks.marks(caseId).map((m) => m.seq)).toEqual([head - 2, head]);
    expect(marks.usableMark(db, caseId)).toMatchObject({ seq: head, markedAt: '2026-12-05T10:00:00.000Z' });
  });

  it('keeps one mark per verified receipt, the latest time it was reached, and at most eight', () => {
    const point = (seq: number) => ({ seq, hash: seq.toString(16).padStart(64, '0'), signature: 'sig', sealed: true, keys: [], admins: [], rootKey: null, exactTimes: true });
    marks.record('case-x', point(5), '2026-12-05T10:00:00.000Z');
    marks.record('case-x', point(5), '2026-12-05T11:00:00.000Z');
    expect(marks.marks('case-x').map((m) => [m.seq, m.markedAt])).toEqual([[5, '2026-12-05T11:00:00.000Z']]);
    for (let seq = 6; seq < 16; seq++) marks.record('case-x', point(seq), `2026-12-05T12:00:${String(seq).padStart(2, '0')}.000Z`);
    expect(marks.marks('case-x').map((m) => m.seq)).toEqual([15, 14, 13, 12, 11, 10, 9, 8]);
  });

  it('keeps a case id with path characters to one file inside its folder', () => {
    const point = { seq: 3, hash: 'a'.repeat(64), signature: 'sig', sealed: true, keys: [], admins: ['admin'], rootKey: null, exactTimes: true };
    const dir = join(rc.dir, 'verified');
    marks.record('../../escape', point, '2026-12-05T00:00:00.000Z');
    expect(readdirSync(dir).sort()).toEqual(['.mark-key', '______escape.json']);
    expect(readdirSync(rc.dir)).not.toContain('escape.json');
    expect(marks.marks('../../escape')).toEqual([{ ...point, caseId: '../../escape', markedAt: '2026-12-05T00:00:00.000Z' }]);
  });

  it('copies of a case share its id: a mark counts only where the copy still holds the verified receipt', async () => {
    rc.session.close();
    const copy = join(rc.dir, 'copy.sqlite');
    copyFileSync(rc.casePath, copy);
    await verifyCaseFile(rc.casePath, { marks });
    // The copy diverges: its last receipt is not the one verified in the original.
    const db = new Database(copy);
    db.exec('DROP TRIGGER IF EXISTS audit_receipt_no_update');
    db.prepare("UPDATE audit_receipt SET signature = 'AAAA' WHERE seq = (SELECT MAX(seq) FROM audit_receipt)").run();
    db.close();
    const v = await verifyCaseFile(copy, { marks, routine: true });
    expect(v.verification).toMatchObject({ ok: false, routine: null });
  });
});

describe('in the workbench', () => {
  it('verifies in full once after opening, routinely after that, and in full when asked', async () => {
    const first = await rc.call('audit:verify', {});
    expect(first.routine).toBeNull();
    await rc.claim('cl-next');
    const second = await rc.call('audit:verify', {});
    expect(second.routine?.since).toBe(first.length);
    expect(second.signatures.verified).toBe(second.length - first.length);
    expect((await rc.call('audit:verify', { full: true })).routine).toBeNull();
    // Reopened: the file may have changed while it was closed, so in full again.
    rc.session.close();
    rc.session.open(rc.casePath);
    rc.as('admin');
    expect((await rc.call('audit:verify', {})).routine).toBeNull();
  });
});
