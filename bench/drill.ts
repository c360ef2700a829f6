/**
 * The propagation drill and the §37 metrics (issue 14.3): drill:run and metrics:get timed on the
 * bundled 7-claim demo (the baseline, in the same run) and on the seeded 10,000-claim case of
 * bench/scale-case.ts (its generator, not a second one). metrics:get has a goal of 200 ms there;
 * the drill has none (it copies the case and derives every claim of the copy twice).
 *
 *   BENCH_KEEP=/tmp/case10k npx tsx bench/scale-case.ts   # builds the generated case once
 *   npx tsx bench/drill.ts /tmp/case10k
 *
 * Without a case directory it builds one first through scale-case.ts (BENCH_CLAIMS, default
 * 10,000), which prints its own figures on the way.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DrillReport, MetricsReport } from '../shared/ipc/channels/drill';
import { ensureDemoCase } from '../electron/core/demo';
import { dispatch } from '../electron/core/dispatch';
import { handlers } from '../electron/core/handlers';
import { Session } from '../electron/core/session';
import { TEST_PASSPHRASE, testSession } from '../electron/testing/testCase';
import { medianMsAsync, report } from './lib';

const ROOT = resolve(import.meta.dirname, '..');

async function measure(label: string, session: Session, actorId: string, passphrase: string, drillRuns: number): Promise<Record<string, number>> {
  const seat = session.seat('bench');
  seat.unlock(actorId, passphrase);
  const ask = async <T>(channel: string, request: unknown): Promise<T> => {
    const e = await dispatch(handlers, seat, channel, request);
    if (!e.ok) throw new Error(`${channel}: ${e.error.message}`);
    return e.value as T;
  };
  const timed = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
    const t = performance.now();
    const value = await run();
    return [performance.now() - t, value];
  };
  // The first metrics:get after opening derives every claim (as the first claim:list does); later ones reuse it.
  const [metricsFirst] = await timed(() => ask<MetricsReport>('metrics:get', {}));
  const metrics = await medianMsAsync(() => ask('metrics:get', {}), 9, 2);
  const [drillFirst, first] = await timed(() => ask<DrillReport>('drill:run', {}));
  const drill = drillRuns > 1 ? await medianMsAsync(() => ask('drill:run', {}), drillRuns, 0) : drillFirst;
  const info = await ask<{ claimCount: number; evidenceCount: number }>('case:info', {});
  const figures: Record<string, number> = {
    claims: info.claimCount,
    revisions: info.evidenceCount,
    'metrics:get_first': metricsFirst,
    'metrics:get': metrics,
    'drill:run_first': drillFirst,
    'drill:run': drill,
    error_propagation_changed: first.errorPropagation.changed,
    error_propagation_affectable: first.errorPropagation.affectable,
    adopted: first.errorPropagation.adopted,
    injection_propagation: first.injectionPropagation.total,
    false_consensus: first.falseConsensusRate.numerator,
    unauthorized_probe_reads: first.retrievalProbe.unauthorizedReads,
  };
  report(label, figures);
  report(`${label}: drill stages of the first run (ms)`, first.stagesMs);
  process.stdout.write(`${label}: verdict ${first.verdict.passed ? 'passed' : `FAILED (${first.verdict.failures.join('; ')})`}\n`);
  return figures;
}

/** A generated case directory: the one named, or one scale-case.ts builds now (deleted afterwards). */
function generatedCase(): { dir: string; built: boolean } {
  if (process.argv[2]) return { dir: process.argv[2], built: false };
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-drill-case-'));
  rmSync(dir, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'bench', 'scale-case.ts')], { stdio: 'inherit', env: { ...process.env, BENCH_KEEP: dir } });
  return { dir, built: true };
}

async function main(): Promise<void> {
  const demoDir = mkdtempSync(join(tmpdir(), 'erwb-bench-drill-'));
  const demo = new Session({ userDataDir: demoDir, log: () => {} });
  demo.open(await ensureDemoCase(join(ROOT, 'resources', 'demo-case.json'), demoDir));
  const base = await measure('demo case, 7 claims (baseline)', demo, 'lena.k', 'demo-lena-2231', 9);
  demo.close();
  rmSync(demoDir, { recursive: true, force: true });

  const kept = generatedCase();
  // A copy: opening migrates the file, and the kept case stays as scale-case wrote it.
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-drill-'));
  try {
    cpSync(kept.dir, dir, { recursive: true });
    const big = testSession({ userDataDir: join(dir, 'user') });
    big.open(join(dir, 'test.case.sqlite'));
    const large = await measure(`generated case in ${kept.dir}`, big, 'rev', TEST_PASSPHRASE, 3);
    big.close();
    const timings = ['metrics:get_first', 'metrics:get', 'drill:run_first', 'drill:run'];
    report('ratios to the demo', Object.fromEntries(timings.map((k) => [k, large[k]! / base[k]!])));
    report('metrics:get goal (200 ms) on the generated case', { 'metrics:get': large['metrics:get']!, met: String(large['metrics:get']! < 200) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (kept.built) rmSync(kept.dir, { recursive: true, force: true });
  }
}

void main();
