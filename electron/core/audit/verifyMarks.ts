import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import type { CaseDb } from '../store/caseFile';
import { verifyChainAsync, type ResumePoint, type VerifyOptions } from './verify';

/**
 * "Verified through seq N at head H" (issue 9): what this machine's last successful verification
 * of a case reached, so a routine verification checks only what came after. Kept on the
 * verifier's machine, not in the case file: a handed-over file cannot vouch for itself, and the
 * record is MAC'd with a key that never leaves this user's data folder, so an edited record is
 * ignored (the next verification is then a full one). Keyed by case id; copies of a case share
 * it, so up to MAX_MARKS heads are kept and a mark only counts where the file still has, at that
 * seq, the very receipt (hash and signature) that was verified.
 */
export interface VerificationMark extends ResumePoint {
  caseId: string;
  markedAt: string;
}

const MAX_MARKS = 8;

/** This user's marks: kept in their data folder, one place for every verifier (verify, pulls, clones). */
export const marksOf = (userDataDir: string): VerificationMarks => new VerificationMarks(join(userDataDir, 'verified'));

export class VerificationMarks {
  constructor(readonly dir: string) {}

  private file(caseId: string): string {
    return join(this.dir, `${caseId.replace(/[^A-Za-z0-9-]/g, '_')}.json`);
  }

  private key(): Buffer {
    const path = join(this.dir, '.mark-key');
    if (!existsSync(path)) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      // Stryker disable next-line StringLiteral: 'wx' only tells when two processes create the key at once
      writeFileSync(path, randomBytes(32), { mode: 0o600, flag: 'wx' });
    }
    return readFileSync(path);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key()).update(text).digest('hex');
  }

  /** This machine's marks for a case, newest first; [] when none, or when the record was altered. */
  marks(caseId: string): VerificationMark[] {
    try {
      // No record (nothing to read), an unreadable one and an altered one all mean no mark.
      const { marks, mac } = JSON.parse(readFileSync(this.file(caseId), 'utf8')) as { marks: string; mac: string };
      const expected = Buffer.from(this.mac(marks), 'hex');
      const given = Buffer.from(String(mac), 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
      return (JSON.parse(marks) as VerificationMark[]).filter((m) => m.caseId === caseId);
    } catch {
      return [];
    }
  }

  /** The newest mark whose receipt this file still holds unchanged, if any. */
  usableMark(db: CaseDb, caseId: string): VerificationMark | null {
    const at = db.prepare('SELECT hash, signature FROM audit_receipt WHERE seq = ?');
    for (const m of this.marks(caseId).sort((a, b) => b.seq - a.seq)) {
      const row = at.get(m.seq) as { hash: string; signature: string | null } | undefined;
      if (row && row.hash === m.hash && row.signature === m.signature) return m;
    }
    return null;
  }

  record(caseId: string, point: ResumePoint, markedAt: string): void {
    if (point.seq === 0) return;
    const mark: VerificationMark = { ...point, caseId, markedAt };
    const kept = [mark, ...this.marks(caseId).filter((m) => !(m.seq === mark.seq && m.hash === mark.hash))].slice(0, MAX_MARKS);
    const marks = JSON.stringify(kept);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const path = this.file(caseId);
    writeFileSync(`${path}.tmp`, JSON.stringify({ marks, mac: this.mac(marks) }), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }
}

/**
 * Verifies a case routinely when this machine has a usable mark for it (only what came after),
 * in full otherwise or when asked, and records how far a successful verification reached.
 */
export async function verifyFromMark(
  db: CaseDb,
  how: { marks: VerificationMarks | null; full: boolean; now: () => string; options?: VerifyOptions },
): Promise<ChainVerification> {
  const options = how.options ?? {};
  // Stryker disable next-line StringLiteral: equivalent; a file without a case id fails verify's case identity check, so no mark is recorded under any name
  const caseId = (db.prepare("SELECT value FROM case_meta WHERE key = 'case_id'").pluck().get() as string | undefined) ?? '';
  const mark = how.marks && !how.full && options.expectedHead === undefined ? how.marks.usableMark(db, caseId) : null;
  let reached: ResumePoint | null = null;
  const v = await verifyChainAsync(db, { ...options, ...(mark ? { resume: mark } : {}), reached: (p) => (reached = p) });
  if (mark && v.routine) v.routine.markedAt = mark.markedAt;
  if (v.ok && reached && how.marks && caseId) how.marks.record(caseId, reached, how.now());
  return v;
}
