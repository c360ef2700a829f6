import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../shared/ipc/contract';
import {
  createFuzzCase,
  formatReport,
  formatViolation,
  fuzzChannels,
  PROPERTIES,
  type FuzzCase,
  type FuzzReport,
  type Property,
} from '../testing/channelFuzz';

/**
 * Issue 12: every channel of the contract, fuzzed through the real handler table (see
 * testing/channelFuzz.ts for how requests are made). A fixed seed and a modest run here;
 * `npx tsx scripts/fuzz-channels.ts --runs N --seed S` runs this file longer through FUZZ_RUNS,
 * FUZZ_SEED and FUZZ_REPORT (where it wants the report as JSON).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_120);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const REPORT_FILE = process.env.FUZZ_REPORT;

let fz: FuzzCase | undefined;
let report: FuzzReport;

beforeAll(async () => {
  fz = await createFuzzCase();
  report = await fuzzChannels(fz, { seed: SEED, runs: RUNS });
  if (REPORT_FILE) {
    writeFileSync(REPORT_FILE, JSON.stringify({ table: formatReport(report), violations: report.violations.map(formatViolation) }));
  } else {
    console.log(formatReport(report));
  }
  // The long run has no time limit; the default one must stay well inside a minute on two cores.
}, process.env.FUZZ_RUNS ? 0 : 120_000);

afterAll(() => fz?.cleanup());

const broken = (...properties: Property[]) =>
  report.violations.filter((v) => properties.includes(v.property)).map(formatViolation);

describe(`every IPC channel under fuzzed requests (seed ${SEED}, ${RUNS} per channel)`, () => {
  it('sends requests to every channel of the contract, some of them unmutated', () => {
    expect(report.tallies.map((t) => t.channel).sort()).toEqual([...CHANNELS].sort());
    for (const t of report.tallies) {
      expect(t.requests, t.channel).toBe(RUNS);
    }
    expect(report.tallies.reduce((n, t) => n + t.asIs, 0)).toBeGreaterThan(0);
  });

  it(PROPERTIES.envelope, () => {
    expect(broken('envelope', 'threw')).toEqual([]);
  });

  it(PROPERTIES.internal, () => {
    expect(broken('internal')).toEqual([]);
  });

  it(PROPERTIES.echo, () => {
    expect(broken('echo')).toEqual([]);
  });

  it(PROPERTIES['refusal-wrote'], () => {
    expect(broken('refusal-wrote')).toEqual([]);
  });

  it(PROPERTIES.prototype, () => {
    expect(broken('prototype')).toEqual([]);
  });

  it('leaves a chain that audit:verify { full: true } accepts', () => {
    expect(report.finalVerify).toMatchObject({ ok: true, value: { ok: true, firstBroken: null } });
  });
});
