import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { verifyCaseFile } from '../../host/verifyCommand';
import { buildRealisticCase, openAsAttacker } from '../../testing/tamper';

/**
 * Issue 9.1, the evidence columns: the ingest receipt did not record the validity context, so a
 * direct edit of a revision's classification (which lets a reviewer without clearance read it),
 * tenant, trust tier, independence group, times, kind or author went unnoticed by verify. The
 * receipt now records the whole revision as stored, and verify holds every column to it.
 */
let base: { path: string; cleanup: () => void };
beforeAll(async () => {
  base = await buildRealisticCase();
}, 60_000);
afterAll(() => base.cleanup());

const EDITS: [what: string, sql: string, expected: string][] = [
  ['classification lowered', `UPDATE evidence_revision SET classification = 'public' WHERE classification <> 'public'`, 'validity context (classification)'],
  ['tenant moved', `UPDATE evidence_revision SET tenant = 'globex'`, 'validity context (tenant)'],
  ['trust tier raised', `UPDATE evidence_revision SET trust_tier = 'authoritative' WHERE trust_tier <> 'authoritative'`, 'validity context (trustTier)'],
  ['independence group cleared', `UPDATE evidence_revision SET independence_group = 'forged-group'`, 'validity context (independenceGroup)'],
  ['observed_at moved', `UPDATE evidence_revision SET observed_at = '2020-01-01T00:00:00Z'`, 'validity context (observedAt)'],
  ['valid_until extended', `UPDATE evidence_revision SET valid_until = '2099-01-01T00:00:00Z'`, 'validity context (validUntil)'],
  ['kind upgraded', `UPDATE evidence_revision SET kind = 'forensic_artifact' WHERE kind <> 'forensic_artifact'`, 'lineage, kind, media type, title or author'],
  ['author rewritten', `UPDATE evidence_revision SET created_by = 'carol' WHERE created_by <> 'carol'`, 'lineage, kind, media type, title or author'],
];

describe('verify holds every evidence column to its ingest receipt', () => {
  it.each(EDITS)('%s is caught and named', async (_what, sql, expected) => {
    const path = `${base.path}.${Math.random().toString(36).slice(2)}.sqlite`;
    copyFileSync(base.path, path);
    const db = openAsAttacker(path);
    const changed = db.prepare(sql).run().changes;
    db.close();
    expect(changed).toBeGreaterThan(0);
    const result = await verifyCaseFile(path);
    expect(result.exitCode).toBe(1);
    expect(result.verification?.firstBroken).toMatchObject({ kind: 'state' });
    expect(result.summary).toContain(expected);
  });

  it('the untouched case verifies', async () => {
    expect((await verifyCaseFile(base.path)).exitCode).toBe(0);
  });
});
