import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
import { TEST_PASSPHRASE } from '../testing/testCase';
import { tableDigest } from './store/digest';

/**
 * Issue 12: every channel of the contract, fuzzed through the real handler table (how requests
 * are made: testing/requestMutations.ts). A fixed seed and a modest run here; `npx tsx
 * scripts/fuzz-channels.ts --runs N --seed S` runs this file longer through FUZZ_RUNS, FUZZ_SEED
 * and FUZZ_REPORT (where it wants the report as JSON).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_120);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const REPORT_FILE = process.env.FUZZ_REPORT;

describe(`every IPC channel under fuzzed requests (seed ${SEED}, ${RUNS} per channel)`, () => {
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
    // The long run has no time limit; the default one takes about 15 s on two cores.
  }, process.env.FUZZ_RUNS ? 0 : 60_000);

  afterAll(() => fz?.cleanup());

  const broken = (...properties: Property[]) => report.violations.filter((v) => properties.includes(v.property)).map(formatViolation);

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

  it(PROPERTIES.chain, () => {
    expect(broken('chain')).toEqual([]);
  });

  it('leaves a chain that audit:verify { full: true } accepts at the end', () => {
    expect(report.finalVerify).toMatchObject({ ok: true, value: { ok: true, firstBroken: null } });
  });
});

/** What earlier fuzz runs found, as the shortest sequences that show it, so they fail until fixed. */
describe('replays of what the fuzzer found', () => {
  let fz: FuzzCase;
  beforeEach(async () => {
    fz = await createFuzzCase();
    for (const actorId of ['admin', 'alice']) fz.session.seat(actorId).unlock(actorId, TEST_PASSPHRASE);
  });
  afterEach(() => fz.cleanup());

  it('binding evidence to a claim after its remediation was resolved keeps the chain verifiable', async () => {
    // fullCase resolved cl-resolved's remediation RETAINED: the claim is at generation 2.
    const bound = await fz.raw('alice', 'claim:bind', { claimId: 'cl-resolved', revisionId: 'ev-report@1', relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
    expect(bound).toMatchObject({ ok: true, value: { generation: 2 } });
    expect(await fz.raw('admin', 'audit:verify', { full: true })).toMatchObject({ ok: true, value: { ok: true, firstBroken: null } });
  });

  it('revocation:runWorker refused because the key was replaced leaves the outbox as it was', async () => {
    expect((await fz.raw('admin', 'evidence:transition', { revisionId: 'ev-quote@1', to: 'DISPUTED', reason: 'vendor retracted the quote' })).ok).toBe(true);
    // The admin rekeys themself: this window still holds the old key until it unlocks again.
    expect((await fz.raw('admin', 'actor:rekey', { actorId: 'admin', reason: 'new laptop', passphrase: TEST_PASSPHRASE })).ok).toBe(true);
    const before = tableDigest(fz.casePath);
    expect(await fz.raw('admin', 'revocation:runWorker', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    expect(tableDigest(fz.casePath)).toBe(before);
  });

  it('an error stays small when every element of a maximal array carries a long unknown key', async () => {
    const node = `{"kind":"entity","id":"page","label":"web page","${'k'.repeat(5000)}":1}`;
    const nodes = JSON.parse(`[${new Array(500).fill(node).join(',')}]`) as unknown[];
    const answer = await fz.raw('admin', 'prov:record', { tenant: 'acme', classification: 'internal', nodes });
    expect(answer.ok).toBe(false);
    const issues = answer.ok ? [] : (answer.error.issues ?? []);
    expect(issues.reduce((n, i) => n + i.message.length + i.path.join('.').length, 0)).toBeLessThanOrEqual(20_000);
  });
});
