/**
 * STIX import at scale (issue 10.3): a seeded ATT&CK-shaped STIX 2.1 bundle (20,000 objects by
 * default, a few hundred revoked in revoked-by chains and a few hundred deprecated) is imported
 * through importStix into a new case; the baseline, measured in the same run, is bundle:import of
 * the very records the STIX mapping produces (same evidence, claims and bindings, written as an
 * evidence bundle), so the ratio is what reading STIX, mapping it and applying revocation cost on
 * top of a bundle import. Each import runs in a child process of its own, so its peak RSS
 * (resourceUsage().maxRSS) is its own; times are medians of --runs runs, alternating the two.
 * Then, on one STIX case: re-import (all unchanged) and export.
 *
 *   npx tsx bench/stix-import.ts [--objects 20000] [--revoked 300] [--deprecated 200] [--runs 3]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../shared/interchange/bundle';
import { applyBundle } from '../electron/core/interchange/bundleImport';
import { readBundle } from '../electron/core/interchange/bundleRead';
import { exportStix } from '../electron/core/interchange/stix/stixExport';
import { importStix } from '../electron/core/interchange/stix/stixImport';
import { stixToBundle } from '../electron/core/interchange/stix/stixMap';
import { checkBundle } from '../electron/core/interchange/stix/stixRead';
import { syntheticBundle } from '../electron/core/interchange/stix/syntheticBundle';
import { createTestCase } from '../electron/testing/testCase';
import { report, seededRandom } from './lib';

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '20000' },
    revoked: { type: 'string', default: '300' },
    deprecated: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    phase: { type: 'string' },
    file: { type: 'string' },
  },
});

interface PhaseResult {
  ms: number;
  peakRssMb: number;
  heapUsedMb: number;
  evidence: number;
  claims: number;
  bindings: number;
  superseded?: number;
  revoked?: number;
  reimportMs?: number;
  exportMs?: number;
  exportObjects?: number;
}

/** One import in this process (a child of the bench): prints its figures as one JSON line. */
async function phase(kind: 'stix' | 'bundle', file: string): Promise<void> {
  const tc = await createTestCase();
  const t0 = performance.now();
  let result: PhaseResult;
  if (kind === 'stix') {
    const r = importStix(tc.session.context(), { path: file });
    const ms = performance.now() - t0;
    const t1 = performance.now();
    importStix(tc.session.context(), { path: file });
    const reimportMs = performance.now() - t1;
    const t2 = performance.now();
    const out = exportStix(tc.session.context(), join(tc.dir, 'out.json'));
    result = {
      ms, peakRssMb: 0, heapUsedMb: 0, evidence: r.created.evidence, claims: r.created.claims, bindings: r.created.bindings,
      superseded: r.stix.superseded.length, revoked: r.stix.revoked.length, reimportMs, exportMs: performance.now() - t2, exportObjects: out.objects,
    };
  } else {
    const r = applyBundle(tc.session.context(), await readBundle(file));
    result = { ms: performance.now() - t0, peakRssMb: 0, heapUsedMb: 0, evidence: r.created.evidence, claims: r.created.claims, bindings: r.created.bindings };
  }
  result.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  result.heapUsedMb = Math.round(process.memoryUsage().heapUsed / 1024 ** 2);
  tc.cleanup();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function child(kind: 'stix' | 'bundle', file: string): PhaseResult {
  const out = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, '--phase', kind, '--file', file], { encoding: 'utf8', maxBuffer: 16 * 1024 ** 2 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as PhaseResult;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const size = { objects: Number(values.objects), revoked: Number(values.revoked), deprecated: Number(values.deprecated) };
  const runs = Number(values.runs);
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-stix-'));
  try {
    const generated = syntheticBundle(seededRandom(20261210), size);
    const stixPath = join(dir, 'bundle.stix.json');
    writeFileSync(stixPath, JSON.stringify(generated.bundle));
    // The baseline: the records this mapping makes of the bundle in an empty case, as an evidence bundle.
    const mapping = stixToBundle(checkBundle(generated.bundle), { tenant: 'acme', classification: 'internal', lineage: () => undefined, claim: () => undefined, caseName: (name) => name });
    const bundlePath = join(dir, 'bundle.ndjson');
    writeFileSync(bundlePath, [{ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, producer: 'bench' }, ...mapping.records.map((r) => r.record)].map((r) => JSON.stringify(r)).join('\n') + '\n');

    const stix: PhaseResult[] = [];
    const bundle: PhaseResult[] = [];
    for (let i = 0; i < runs; i++) {
      bundle.push(child('bundle', bundlePath));
      stix.push(child('stix', stixPath));
    }
    const s = median(stix.map((r) => r.ms));
    const b = median(bundle.map((r) => r.ms));
    const first = stix[0]!;
    report('stix-import', {
      objects: size.objects,
      revoked: size.revoked,
      deprecated: size.deprecated,
      runs,
      evidence: first.evidence,
      claims: first.claims,
      bindings: first.bindings,
      superseded: first.superseded!,
      revoked_outright: first.revoked!,
      import_s: (s / 1000).toFixed(2),
      import_objects_per_s: Math.round(size.objects / (s / 1000)),
      baseline_bundle_import_s: (b / 1000).toFixed(2),
      ratio_to_baseline: (s / b).toFixed(3),
      peak_rss_mb: median(stix.map((r) => r.peakRssMb)),
      baseline_peak_rss_mb: median(bundle.map((r) => r.peakRssMb)),
      heap_used_mb_after: median(stix.map((r) => r.heapUsedMb)),
    });
    report('stix-import (then, on that case)', {
      reimport_unchanged_s: (median(stix.map((r) => r.reimportMs!)) / 1000).toFixed(2),
      export_s: (median(stix.map((r) => r.exportMs!)) / 1000).toFixed(2),
      export_objects: first.exportObjects!,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.phase === 'stix' || values.phase === 'bundle') void phase(values.phase, values.file!);
else void main();
