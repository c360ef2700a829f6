import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../store/migrations';
import { schemaTablesAt } from '../store/schemaTables';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { verifyCaseFile } from './verifyFile';

// A table dropped by hand takes its rows with it, and no receipt check can run against rows that
// are not there. Verify must call that a break, not a skipped check; only a file an older build
// wrote may lack a table, and only one its schema version never had.
let rc: ReviewCase;
let copies = 0;
beforeAll(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.evidence('ev-2');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-1@1');
  await rc.bind('cl-1', 'ev-2@1', 'REFUTES');
  rc.session.close();
});
afterAll(() => rc.cleanup());

/** A copy of the case with `tables` dropped and the schema version set to `version`. */
function copyWithout(tables: readonly string[], version = LATEST_VERSION): string {
  const path = join(rc.dir, `copy-${(copies += 1)}.sqlite`);
  copyFileSync(rc.casePath, path);
  const db = new Database(path);
  db.pragma('foreign_keys = OFF');
  for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t}"`);
  db.pragma(`user_version = ${version}`);
  db.close();
  return path;
}

describe('verify of a case file with a table missing', () => {
  const current = [...schemaTablesAt(LATEST_VERSION)];
  // A full-text index's own tables cannot be dropped apart from it; the case file's metadata and
  // the receipt log are what verify reads first (without them it is not a case file: exit 3).
  const rowTables = current.filter((t) => !/_fts_(data|idx|docsize|config|content)$/.test(t) && t !== 'case_meta' && t !== 'audit_receipt');

  it.each(rowTables)('breaks when %s is dropped from a file at this build\'s schema', async (table) => {
    const r = await verifyCaseFile(copyWithout([table]));
    expect(r.exitCode).toBe(1);
    expect(r.verification!.firstBroken!.reason).toMatch(new RegExp(`${table}\\b`));
  });

  it.each(['case_meta', 'audit_receipt'])('cannot verify a file without %s, and says why', async (table) => {
    const r = await verifyCaseFile(copyWithout([table]));
    expect(r.exitCode).toBe(3);
    expect(r.summary).toContain(table);
  });

  it('names the dropped table once the chain itself verified', async () => {
    const r = await verifyCaseFile(copyWithout(['remediation']));
    expect(r.verification!.firstBroken).toMatchObject({
      seq: r.verification!.length + 1,
      reason: "the case file's schema has the table(s) remediation, and the file does not: dropped outside the workbench, with every row in them",
    });
  });

  it('skips, and counts as unchecked, the checks an older schema has no tables for', async () => {
    const at210 = schemaTablesAt(210);
    const later = current.filter((t) => !at210.has(t));
    expect(later).toContain('evidence_copy');
    const r = await verifyCaseFile(copyWithout(later, 210));
    expect(r.exitCode).toBe(0);
    const whole = await verifyCaseFile(rc.casePath);
    const { checked, unchecked } = r.verification!.fingerprints;
    expect(unchecked).toBeGreaterThan(whole.verification!.fingerprints.unchecked);
    expect(checked + unchecked).toBe(whole.verification!.fingerprints.checked + whole.verification!.fingerprints.unchecked);
  });

  it('breaks when an older file lacks a table its own schema has', async () => {
    const at210 = schemaTablesAt(210);
    const later = current.filter((t) => !at210.has(t));
    const r = await verifyCaseFile(copyWithout([...later, 'claim_binding'], 210));
    expect(r.exitCode).toBe(1);
    expect(r.verification!.firstBroken!.reason).toMatch(/claim_binding/);
  });
});
