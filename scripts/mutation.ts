/**
 * Mutation testing of the safety core (issue 13), part by part (scripts/mutationScope.mjs):
 *
 *   npm run test:mutation                      every part in turn, then the score table
 *   npm run test:mutation -- audit host-server  only those parts (`audit` is every audit-* part)
 *   npm run test:mutation -- --score           only the table, from the records already written
 *
 * Each part is one Stryker run (stryker.config.mjs) with its own incremental file and report in
 * reports/mutation/<part>/, so a finished part keeps its results while another runs or is cut,
 * and a re-run after a small change retests only what the change touches. What a part found is
 * recorded in docs/mutation/<part>.json (kept in git), from which the table is drawn.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { MUTATION_PARTS, NOT_MUTATED, PART_TESTS } from './mutationScope.mjs';

const ROOT = resolve(import.meta.dirname, '..');
type Part = string;
const PARTS: Part[] = Object.keys(MUTATION_PARTS);

const reportDir = (part: Part): string => join(ROOT, 'reports', 'mutation', part);
/** The tests a part is measured against (mutationScope.mjs), or undefined for the whole unit suite. */
const testsOf = (part: Part): readonly string[] | undefined => PART_TESTS[part];

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
  const tests = testsOf(part);
  process.stderr.write(`\nmutation: ${part} (${files.join(', ')})${tests ? `, tested by ${tests.join(', ')}` : ''}\n`);
  // Read by vitest.mutation.config.ts in Stryker's test runner processes, which inherit it. JSON,
  // since a glob's braces hold commas.
  if (tests) process.env.ERWB_MUTATION_TESTS = JSON.stringify(tests);
  else delete process.env.ERWB_MUTATION_TESTS;
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
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}
interface Report {
  files: Record<string, { mutants: ReportMutant[] }>;
}

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'] as const;

type Counts = Record<'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError', number>;
const noCounts = (): Counts => ({ Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, CompileError: 0 });

/**
 * What a finished part found, kept in git (docs/mutation/<part>.json): reports/ is not, and a part
 * takes up to an hour, so without this record a full run's scores would live only on the machine
 * that ran it. Counts per file, every mutant left alive, and the commit the run tested.
 */
interface PartRecord {
  part: Part;
  files: readonly string[];
  /** The tests it was measured against, when not the whole unit suite. */
  tests?: readonly string[];
  commit: string;
  finished: string;
  perFile: Record<string, Counts>;
  alive: { file: string; line: number; column: number; mutator: string; replacement: string; status: string }[];
}

const recordFile = (part: Part): string => join(ROOT, 'docs', 'mutation', `${part}.json`);

function headCommit(): string {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
  return dirty ? `${head}+uncommitted` : head;
}

function recordPart(part: Part, report: Report, finished: Date, commit: string): PartRecord {
  const perFile: Record<string, Counts> = {};
  const alive: PartRecord['alive'] = [];
  for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const counts = noCounts();
    for (const m of mutants) {
      if (m.status in counts) counts[m.status as keyof Counts] += 1;
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const { line, column } = m.location.start;
        alive.push({ file, line, column, mutator: m.mutatorName, replacement: m.replacement ?? '', status: m.status });
      }
    }
    perFile[file] = counts;
  }
  alive.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  const tests = testsOf(part);
  return { part, files: MUTATION_PARTS[part] ?? [], ...(tests ? { tests } : {}), commit, finished: finished.toISOString(), perFile, alive };
}

/** Brings docs/mutation/<part>.json up to date with a report written since (a run of this script, or of Stryker directly). */
function keepRecord(part: Part, commit: string): void {
  const reportFile = join(reportDir(part), 'mutation.json');
  if (!existsSync(reportFile)) return;
  const written = statSync(reportFile).mtime;
  const target = recordFile(part);
  if (existsSync(target)) {
    const kept = JSON.parse(readFileSync(target, 'utf8')) as PartRecord;
    if (new Date(kept.finished) >= written) return;
  }
  const record = recordPart(part, JSON.parse(readFileSync(reportFile, 'utf8')) as Report, written, commit);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(record, null, 1)}\n`);
  process.stderr.write(`mutation: ${part}: ${record.alive.length} mutant(s) left alive, recorded in ${target}\n`);
}

/** Stryker's score per folder over every part's record: killed and timed out over every mutant that compiled and was not ignored. */
function scoreTable(): string {
  const rows: string[][] = [['folder', 'killed', 'timeout', 'survived', 'no cover', 'compile err', 'score', 'tested at']];
  const byFolder = new Map<string, { counts: Counts; commits: Set<string> }>();
  const notRun = PARTS.filter((part) => !existsSync(recordFile(part)));
  for (const part of PARTS.filter((p) => !notRun.includes(p))) {
    const record = JSON.parse(readFileSync(recordFile(part), 'utf8')) as PartRecord;
    for (const [file, c] of Object.entries(record.perFile)) {
      const folder = file.split('/').slice(0, -1).join('/') || file;
      const entry = byFolder.get(folder) ?? { counts: noCounts(), commits: new Set<string>() };
      for (const k of Object.keys(c) as (keyof Counts)[]) entry.counts[k] += c[k];
      entry.commits.add(record.commit);
      byFolder.set(folder, entry);
    }
  }
  const total = noCounts();
  for (const [folder, { counts: c, commits }] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += c[k];
    rows.push([folder, ...[c.Killed, c.Timeout, c.Survived, c.NoCoverage, c.CompileError].map(String), score(c), [...commits].join(' ')]);
  }
  rows.push(['all', ...[total.Killed, total.Timeout, total.Survived, total.NoCoverage, total.CompileError].map(String), score(total), '']);
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const table = rows.map((r) => r.map((cell, i) => (i === 0 || i === 7 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
  return notRun.length === 0 ? table : `${table}\nnot run yet: ${notRun.join(', ')}`;
}

function score(c: Record<(typeof COUNTED)[number], number>): string {
  const detected = c.Killed + c.Timeout;
  const valid = COUNTED.reduce((n, k) => n + c[k], 0);
  return valid === 0 ? '-' : `${((100 * detected) / valid).toFixed(1)}%`;
}

const args = process.argv.slice(2);
const named = args.filter((a) => a !== '--score');
/**
 * A name picks that part alone (`store-rows`, not `store-rows-fences`), or else every part it
 * prefixes (`audit` → audit-verify, audit-checks, audit-keys).
 */
const partsNamed = (name: string): Part[] => (PARTS.includes(name) ? [name] : PARTS.filter((p) => p.startsWith(`${name}-`)));
const unknown = named.filter((a) => partsNamed(a).length === 0);
if (unknown.length > 0) {
  process.stderr.write(`mutation: unknown part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}\n`);
  process.exit(2);
}
if (!args.includes('--score')) {
  const chosen = named.length > 0 ? [...new Set(named.flatMap(partsNamed))] : PARTS;
  for (const part of chosen) {
    // The commit is taken when the part starts: Stryker tests the tree as it was copied then.
    const commit = headCommit();
    await runPart(part);
    keepRecord(part, commit);
  }
}
const commitNow = headCommit();
for (const part of PARTS) keepRecord(part, commitNow);
process.stdout.write(`${scoreTable()}\n`);
