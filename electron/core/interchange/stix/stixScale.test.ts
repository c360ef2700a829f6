import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../shared/domain/canonical';
import type { StixImportReport } from '../../../../shared/ipc/channels/stix';
import { seededRandom } from '../../../testing/seededRandom';
import { createTestCase, type TestCase } from '../../../testing/testCase';
import { tableDigest } from '../../store/digest';
import { exportStix } from './stixExport';
import { importStix } from './stixImport';
import { syntheticBundle, type SyntheticBundle } from './syntheticBundle';

/** A few thousand objects here; bench/stix-import.ts runs the same generator at 20,000 and more. */
const SIZE = { objects: 3000, revoked: 60, deprecated: 30 };

describe(`stix:import of a generated ${SIZE.objects}-object bundle`, () => {
  let tc: TestCase;
  let generated: SyntheticBundle;
  let report: StixImportReport;
  let path: string;
  beforeAll(async () => {
    tc = await createTestCase();
    generated = syntheticBundle(seededRandom(1031), SIZE);
    path = join(tc.dir, 'synthetic.json');
    writeFileSync(path, JSON.stringify(generated.bundle));
    report = importStix(tc.session.context(), { path });
  }, 120_000);
  afterAll(() => tc.cleanup());

  it('keeps every object version as one evidence revision', () => {
    const versions = new Set(generated.bundle.objects.map((o) => canonicalJson(o)));
    expect(report.created.evidence).toBe(versions.size);
    expect(report.stix.versionsStored).toBe(versions.size);
    expect(generated.bundle.objects.length).toBe(SIZE.objects);
  });

  it('supersedes every revoked object of a chain by the live end, revokes those of broken chains, and marks deprecated objects', () => {
    // A successor outside the case's home scope carries its scope in its id: compare the STIX id.
    const superseded = new Map(report.stix.superseded.map((s) => [s.id, s.successor.replace(/~[^@]+/, '')]));
    expect(generated.supersededBy.size).toBeGreaterThan(0);
    for (const [revoked, live] of generated.supersededBy) expect(superseded.get(revoked), revoked).toBe(`${live}@1`);
    expect(new Set(report.stix.revoked.map((r) => r.id))).toEqual(new Set(generated.revokedOutright));
    expect(report.stix.superseded.length + report.stix.revoked.length).toBe(SIZE.revoked);
    expect(report.stix.lifecycleNotApplied).toEqual([]);
    expect(new Set(report.stix.deprecated.ids)).toEqual(new Set(generated.deprecated));
    const states = tc.session.db().prepare("SELECT state, COUNT(*) AS n FROM evidence_revision WHERE state IN ('SUPERSEDED', 'REVOKED') GROUP BY state").all();
    expect(states).toEqual(expect.arrayContaining([{ state: 'SUPERSEDED', n: generated.supersededBy.size }, { state: 'REVOKED', n: generated.revokedOutright.length }]));
    expect(report.stix.relationshipsToRevoked.length).toBeGreaterThan(0);
  });

  it('re-imports unchanged and exports every object back', () => {
    const before = tableDigest(tc.casePath);
    const again = importStix(tc.session.context(), { path });
    expect(again.created).toEqual({ sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 });
    expect(tableDigest(tc.casePath)).toBe(before);
    const out = join(tc.dir, 'out.json');
    exportStix(tc.session.context(), out);
    const back = new Set((JSON.parse(readFileSync(out, 'utf8')) as { objects: object[] }).objects.map((o) => canonicalJson(o)));
    for (const o of generated.bundle.objects) expect(back.has(canonicalJson(o))).toBe(true);
  }, 120_000);
});
