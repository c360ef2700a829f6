/**
 * Mutation testing of the safety core (issue 13), part by part (scripts/mutationScope.mjs):
 *
 *   npm run test:mutation                      every part in turn, then the score table
 *   npm run test:mutation -- audit host-server  only those parts (`audit` is every audit-* part)
 *   npm run test:mutation -- --score           only the table, from the reports already written
 *
 * Each part is one Stryker run (stryker.config.mjs) with its own incremental file and report in
 * reports/mutation/<part>/, so a finished part keeps its results while another runs or is cut,
 * and a re-run after a small change retests only what the change touches.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { MUTATION_PARTS, NOT_MUTATED } from './mutationScope.mjs';

const ROOT = resolve(import.meta.dirname, '..');
type Part = string;
const PARTS: Part[] = Object.keys(MUTATION_PARTS);

const reportDir = (part: Part): string => join(ROOT, 'reports', 'mutation', part);

/**
 * Stryker reuses a result when neither the mutant nor the tests covering it changed. A static
 * mutant (code run at module load) has no covering tests on record, so a test added since can
 * never make it re-run: its old "survived" would stand for ever. Those results are dropped before
 * a run so they are tested again; static mutants that were killed stay killed until their code
 * changes (Stryker re-runs a changed mutant anyway).
 */
function forgetStaticSurvivors(incrementalFile: string): number {
  if (!existsSync(incrementalFile)) return 0;
  const report = JSON.parse(readFileSync(incrementalFile, 'utf8')) as { files: Record<string, { mutants: { static?: boolean; status: string }[] }> };
  let dropped = 0;
  for (const file of Object.values(report.files)) {
    const kept = file.mutants.filter((m) => !(m.static && (m.status === 'Survived' || m.status === 'NoCoverage')));
    dropped += file.mutants.length - kept.length;
    file.mutants = kept;
  }
  if (dropped > 0) writeFileSync(incrementalFile, JSON.stringify(report));
  return dropped;
}

async function runPart(part: Part): Promise<void> {
  const dir = reportDir(part);
  const files = MUTATION_PARTS[part] ?? [];
  const dropped = forgetStaticSurvivors(join(dir, 'incremental.json'));
  if (dropped > 0) process.stderr.write(`mutation: ${part}: ${dropped} static mutant(s) that survived before are tested again\n`);
  process.stderr.write(`\nmutation: ${part} (${files.join(', ')})\n`);
  await new Stryker({
    configFile: join(ROOT, 'stryker.config.mjs'),
    mutate: [...files, ...NOT_MUTATED],
    incrementalFile: join(dir, 'incremental.json'),
    htmlReporter: { fileName: join(dir, 'index.html') },
    jsonReporter: { fileName: join(dir, 'mutation.json') },
    // MUTATION_CONCURRENCY=1 leaves a core free for other work while a part runs.
    ...(process.env.MUTATION_CONCURRENCY ? { concurrency: Number(process.env.MUTATION_CONCURRENCY) } : {}),
  }).runMutationTest();
}

interface ReportMutant {
  status: string;
}
interface Report {
  files: Record<string, { mutants: ReportMutant[] }>;
}

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'] as const;

type Counts = Record<'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError', number>;
const noCounts = (): Counts => ({ Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, CompileError: 0 });

/** Stryker's score per folder over every part's report: killed and timed out over every mutant that compiled and was not ignored. */
function scoreTable(): string {
  const rows: string[][] = [['folder', 'killed', 'timeout', 'survived', 'no cover', 'compile err', 'score']];
  const byFolder = new Map<string, Counts>();
  const notRun = PARTS.filter((part) => !existsSync(join(reportDir(part), 'mutation.json')));
  for (const part of PARTS.filter((p) => !notRun.includes(p))) {
    const report = JSON.parse(readFileSync(join(reportDir(part), 'mutation.json'), 'utf8')) as Report;
    for (const [file, { mutants }] of Object.entries(report.files)) {
      const folder = file.split('/').slice(0, -1).join('/') || file;
      const counts = byFolder.get(folder) ?? noCounts();
      for (const m of mutants) if (m.status in counts) counts[m.status as keyof Counts] += 1;
      byFolder.set(folder, counts);
    }
  }
  const total = noCounts();
  for (const [folder, c] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += c[k];
    rows.push([folder, ...[c.Killed, c.Timeout, c.Survived, c.NoCoverage, c.CompileError].map(String), score(c)]);
  }
  rows.push(['all', ...[total.Killed, total.Timeout, total.Survived, total.NoCoverage, total.CompileError].map(String), score(total)]);
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const table = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')).join('\n');
  return notRun.length === 0 ? table : `${table}\nnot run yet: ${notRun.join(', ')}`;
}

function score(c: Record<(typeof COUNTED)[number], number>): string {
  const detected = c.Killed + c.Timeout;
  const valid = COUNTED.reduce((n, k) => n + c[k], 0);
  return valid === 0 ? '-' : `${((100 * detected) / valid).toFixed(1)}%`;
}

const args = process.argv.slice(2);
const named = args.filter((a) => a !== '--score');
/** A name picks that part, or every part it prefixes (`audit` → audit-verify, audit-checks, audit-keys). */
const partsNamed = (name: string): Part[] => PARTS.filter((p) => p === name || p.startsWith(`${name}-`));
const unknown = named.filter((a) => partsNamed(a).length === 0);
if (unknown.length > 0) {
  process.stderr.write(`mutation: unknown part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}\n`);
  process.exit(2);
}
if (!args.includes('--score')) {
  const chosen = named.length > 0 ? [...new Set(named.flatMap(partsNamed))] : PARTS;
  for (const part of chosen) await runPart(part);
}
process.stdout.write(`${scoreTable()}\n`);
