import { copyFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFullCase } from '../../testing/fullCase';
import { rowTampers } from '../../testing/rowTampers';
import { openAsAttacker } from '../../testing/tamper';
import { openCaseFile } from '../store/caseFile';
import { applyImages, replicatedTables } from '../store/replicaRows';
import { trackChanges } from './rowTargets';
import { verifyChain, type ResumePoint } from './verify';

/**
 * Verifying what changed since a verified point (VerifyOptions.changed, as a team pull does) must
 * find every edit a whole verification finds. On a case with rows in every table, verified whole
 * once, each tampered row (a fact column edited, a row deleted, a row added: rowTampers.ts) is
 * written as an attacker would, with the file's triggers and constraints off, and the verification
 * of just that change must refuse it.
 */
let full: { path: string; cleanup: () => void };
let point: ResumePoint;
beforeAll(async () => {
  full = await buildFullCase();
  const db = openCaseFile(full.path);
  try {
    const whole = verifyChain(db, { reached: (p) => (point = p) });
    expect(whole.ok).toBe(true);
  } finally {
    db.close();
  }
}, 120_000);
afterAll(() => full.cleanup());

describe('verifying only what changed', () => {
  it('passes a change that is no change, and checks again the receipts that name what changed', () => {
    const db = openCaseFile(full.path);
    try {
      const tracker = trackChanges(db, [{ t: 'claim', k: [1], r: db.prepare('SELECT * FROM claim WHERE rowid = 1').get() as Record<string, unknown> }])!;
      tracker.note();
      const v = verifyChain(db, { resume: point, changed: tracker.changed });
      expect(v.ok).toBe(true);
      expect([...tracker.changed.targets]).toEqual(['claim:cl-decided']);
      // The claim's receipts (its creation, its bindings, its decisions) were held to the table again.
      expect(v.fingerprints.checked).toBeGreaterThan(3);
    } finally {
      db.close();
    }
  });

  it('passes every row of every table declared changed but left as it is (no false alarm sends a pull to a whole verification)', () => {
    const db = openCaseFile(full.path);
    const alarms: string[] = [];
    let rows = 0;
    try {
      for (const t of replicatedTables(db)) {
        const keyCols = t.key.map((k, i) => `"${k}" AS "k${i}"`).join(', ');
        for (const row of db.prepare(`SELECT ${keyCols}, * FROM "${t.name}"`).all() as Record<string, unknown>[]) {
          const image = { t: t.name, k: t.key.map((_, i) => row[`k${i}`] as string | number), r: Object.fromEntries(t.columns.map((c) => [c, row[c]])) };
          const tracker = trackChanges(db, [image])!;
          tracker.note();
          const v = verifyChain(db, { resume: point, changed: tracker.changed });
          rows += 1;
          if (!v.ok) alarms.push(`${t.name} ${JSON.stringify(image.k)}: ${v.firstBroken?.reason}`);
        }
      }
    } finally {
      db.close();
    }
    expect(alarms).toEqual([]);
    expect(rows).toBeGreaterThan(250);
  });

  it('refuses an unbound revision slipped back into a later generation of its claim (its pair still named by the old bind)', () => {
    const copy = `${full.path}.slipped.sqlite`;
    copyFileSync(full.path, copy);
    const db = openAsAttacker(copy);
    try {
      const old = db.prepare(`SELECT * FROM claim_binding WHERE claim_id = 'cl-resolved' AND generation = 1 AND revision_id NOT IN (SELECT revision_id FROM claim_binding WHERE claim_id = 'cl-resolved' AND generation = 2)`).get() as Record<string, unknown>;
      const rowid = (db.prepare('SELECT MAX(rowid) FROM claim_binding').pluck().get() as number) + 1;
      const image = { t: 'claim_binding', k: [rowid], r: { ...old, binding_id: rowid, generation: 2 } };
      const tracker = trackChanges(db, [image])!;
      db.transaction(() => {
        tracker.note();
        applyImages(db, [image]);
        tracker.note();
      })();
      expect(verifyChain(db).firstBroken?.reason).toMatch(/^claim bindings: the binding of .* \(generation 2\) was written by no receipt/);
      expect(verifyChain(db, { resume: point, changed: tracker.changed }).firstBroken?.reason).toMatch(/^claim bindings: the binding of .* \(generation 2\) was written by no receipt/);
    } finally {
      db.close();
    }
  });

  it('refuses every tampered row that a whole verification refuses', () => {
    const missed: string[] = [];
    let refusedWhole = 0;
    let byConstraints = 0;
    const passedWhole: string[] = [];
    const tampers = rowTampers(full.path);
    for (const [n, { what, image }] of tampers.entries()) {
      const copy = `${full.path}.changed-${n}.sqlite`;
      copyFileSync(full.path, copy);
      const db = openAsAttacker(copy);
      try {
        const tracker = trackChanges(db, [image])!;
        db.transaction(() => {
          tracker.note();
          applyImages(db, [image]);
          tracker.note();
        })();
        const changes = verifyChain(db, { resume: point, changed: tracker.changed });
        const whole = verifyChain(db);
        if (!whole.ok) refusedWhole += 1;
        else passedWhole.push(what);
        // Only a whole verification holds the file to its own constraints (foreign keys, CHECKs),
        // off here: a pull's writes keep them on, and its commit refuses such rows (pullVerification.test.ts).
        if (whole.firstBroken?.reason.startsWith("the file's own constraints")) byConstraints += 1;
        else if (!whole.ok && changes.ok) missed.push(what);
      } finally {
        db.close();
      }
    }
    process.stdout.write(`verifying changes: ${refusedWhole - byConstraints - missed.length} of the ${refusedWhole - byConstraints} tampered rows a whole verification refuses for what the receipts say; ${byConstraints} more break the file's own constraints (of ${tampers.length} tried)\n`);
    expect(missed).toEqual([]);
    expect(passedWhole).toEqual([]);
    expect(refusedWhole).toBe(tampers.length);
    expect(byConstraints).toBeGreaterThan(0);
  }, 120_000);
});
