import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillReport } from '../../../shared/ipc/channels/drill';
import { buildFullCase } from '../../testing/fullCase';
import { createReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE, testSession } from '../../testing/testCase';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session, type Seat } from '../session';
import { tableDigest } from '../store/digest';

/**
 * The propagation drill (seed 000 §35–36) on the bundled demo and on the full test case: what it
 * plants, what propagated, and that the case it ran on was only read (its file, byte for byte,
 * and every row, compared before opening and after closing).
 */
const fileHash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function drill(seat: Seat, request: object = {}): Promise<DrillReport> {
  const answer = await dispatch(handlers, seat, 'drill:run', request);
  if (!answer.ok) throw new Error(`drill:run: ${answer.error.code}: ${answer.error.message}`);
  return answer.value as DrillReport;
}

/** Opens `path`, runs the drill as `actorId`, closes; with the file's hash and row digest from before opening and after closing. */
async function drillOnFile(path: string, userDataDir: string, actorId: string, passphrase: string, session = testSession({ userDataDir })) {
  const before = { bytes: fileHash(path), rows: tableDigest(path) };
  const seat = session.seat('drill');
  seat.open(path);
  seat.unlock(actorId, passphrase);
  try {
    const report = await drill(seat);
    return { report, before };
  } finally {
    session.close();
  }
}

function expectNothingPropagated(r: DrillReport): void {
  expect(r.verdict).toEqual({ passed: true, failures: [] });
  expect(r.planted.injection).toMatchObject({ state: 'QUARANTINED', quarantined: true, screening: expect.arrayContaining(['skip-verification']) });
  expect(r.injectionPropagation.total).toBe(0);
  expect(Object.values(r.injectionPropagation.effects).every((n) => n === 0)).toBe(true);
  expect(r.planted.falseItem.state).toBe('CANDIDATE');
  expect(r.planted.copyItem).toMatchObject({ state: 'CANDIDATE', detectedAsCopy: true, copyOf: [r.planted.falseItem.revisionId], countedIfValidated: { all: 2, independent: 1 } });
  expect(r.errorPropagation).toMatchObject({ adopted: 0, adoptionRate: 0, unexpected: [] });
  expect(r.plantEffects).toMatchObject({ permissionChanges: 0, toolCalls: 0, outboxJobsCreated: 0, lifecycleTransitions: 0, tenantBoundaryCrossings: 0 });
  expect(r.retrievalProbe.unauthorizedReads).toBe(0);
  expect(r.retrievalProbe.reads).toBeGreaterThan(0);
  expect(r.falseConsensusRate.numerator).toBe(0);
  expect(r.metricsAfter.staleEvidenceUseRate.numerator).toBe(0);
  expect(r.copy.removed).toBe(true);
  expect(r.original).toMatchObject({ unchanged: true, drillRowsInCase: 0 });
}

describe('the drill on the bundled demo case', () => {
  let dir: string;
  let path: string;
  let run: Awaited<ReturnType<typeof drillOnFile>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erwb-drill-demo-'));
    path = await ensureDemoCase(resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json'), dir);
    run = await drillOnFile(path, dir, 'lena.k', 'demo-lena-2231', new Session({ userDataDir: dir, log: () => {} }));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('quarantines the injection, and nothing it says propagates', () => {
    expectNothingPropagated(run.report);
  });

  /**
   * Expected, and why: a hurried analyst goes for the decided claim first (cl-rdp), then the two
   * SUPPORTED ones with the most bindings (cl-exfil 7, cl-takeover 6), and contradicts each
   * (REFUTES, as SUPPORTING evidence). cl-rdp has an open remediation, so the store refuses both
   * attachments there; its decision is in force. Affectable: 3 claims + 1 decision = 4. The false
   * item and its copy are CANDIDATE, so neither counts: no status or count moves (adopted 0). Only
   * the support projections of cl-exfil and cl-takeover move, ELIGIBLE → PARTIALLY_SUPPORTED,
   * because unvalidated evidence is now part of what they are bound to: 2 of 4 flagged.
   */
  it('reports ErrorPropagationRate 2/4 on the demo: two projections flagged, nothing adopted', () => {
    const ep = run.report.errorPropagation;
    expect(ep.targets).toEqual(['cl-rdp', 'cl-exfil', 'cl-takeover']);
    expect(ep.decisions).toHaveLength(1);
    expect([ep.changed, ep.affectable, ep.rate, ep.adopted]).toEqual([2, 4, 0.5, 0]);
    expect(ep.changes.map((c) => [c.id, c.direction, c.fields])).toEqual([
      ['cl-exfil', 'flagged', [{ field: 'projection', before: 'ELIGIBLE', after: 'PARTIALLY_SUPPORTED' }]],
      ['cl-takeover', 'flagged', [{ field: 'projection', before: 'ELIGIBLE', after: 'PARTIALLY_SUPPORTED' }]],
    ]);
    const refused = run.report.planted.bindings.filter((b) => !b.bound);
    expect(refused.map((b) => b.claimId)).toEqual(['cl-rdp', 'cl-rdp']);
    expect(refused[0]!.refusal).toMatch(/open remediation/);
    expect(run.report.planted.bindings.filter((b) => b.bound).every((b) => b.relation === 'REFUTES')).toBe(true);
  });

  it('carries the §37 metrics of the copy after the drill', () => {
    const m = run.report.metricsAfter;
    // The demo's 30 revisions plus the three planted ones; the quarantined injection is left out of validation.
    expect(m.provenanceCompleteness.denominator).toBe(33);
    expect(m.validationRate.breakdown.QUARANTINED).toBe(3);
    expect(m.conflictDetectionRate).toMatchObject({ numerator: 1, denominator: 1 });
  });

  it('leaves the case file as it was, byte for byte and row for row, and deletes its copy', () => {
    expect(fileHash(path)).toBe(run.before.bytes);
    expect(tableDigest(path)).toBe(run.before.rows);
  });
});

describe('the drill on the full test case (rows in every table)', () => {
  let full: Awaited<ReturnType<typeof buildFullCase>>;
  let run: Awaited<ReturnType<typeof drillOnFile>>;
  beforeAll(async () => {
    full = await buildFullCase();
    run = await drillOnFile(full.path, join(dirname(full.path), 'user'), 'bob', TEST_PASSPHRASE);
  }, 60_000);
  afterAll(() => full.cleanup());

  it('quarantines the injection, and nothing it says propagates', () => {
    expectNothingPropagated(run.report);
  });

  /**
   * What the attachments may do there, whatever the case holds (the full case grows as features
   * land): every accepted attachment makes the decisions in force on its claim stale (the basis
   * changed) and may make its projection partial or move a quorum's standing, all flagged; no
   * status or usable count moves, and nothing outside the targets changes.
   */
  it('flags what the attachments touched and adopts nothing', () => {
    const ep = run.report.errorPropagation;
    expect(ep.targets).toHaveLength(3);
    expect(ep.changes.every((c) => c.direction === 'flagged')).toBe(true);
    expect(ep.changes.flatMap((c) => c.fields.map((f) => f.field)).every((f) => ['projection', 'review', 'current'].includes(f))).toBe(true);
    const accepted = new Set(run.report.planted.bindings.filter((b) => b.bound).map((b) => b.claimId));
    const staled = ep.changes.filter((c) => c.kind === 'decision' && c.fields.some((f) => f.field === 'current' && f.after === 'false')).map((c) => c.claimId);
    expect(staled.length).toBeGreaterThan(0);
    expect(staled.every((claimId) => accepted.has(claimId))).toBe(true);
    expect([ep.changed <= ep.affectable, ep.affectable]).toEqual([true, 3 + ep.decisions.length]);
    for (const b of run.report.planted.bindings.filter((x) => !x.bound)) expect(b.refusal).toMatch(/open remediation/);
  });

  it('leaves the case file as it was', () => {
    expect(fileHash(full.path)).toBe(run.before.bytes);
    expect(tableDigest(full.path)).toBe(run.before.rows);
  });
});

describe('the drill refuses', () => {
  it('a FINAL case, whose pipeline takes no change, before copying anything', async () => {
    const rc = await createReviewCase();
    try {
      await rc.claim('cl-1');
      await rc.bind('cl-1', await rc.evidence('ev-a'));
      rc.as('bob');
      const d = await rc.call('decision:propose', { claimId: 'cl-1', verdict: 'SUPPORTED', rationale: 'the sign-in record' });
      rc.as('carol');
      await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
      rc.as('admin');
      expect((await rc.call('case:finalize', {})).final).toBe(true);
      expect(await rc.refusal('drill:run', {})).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/^drill:run: the case is FINAL .*Reopen it first/) });
    } finally {
      rc.cleanup();
    }
  });


  it('a case with no claim to attach to, and a named claim the reviewer cannot see', async () => {
    const rc = await createReviewCase();
    try {
      const empty = await rc.refusal('drill:run', {});
      expect(empty).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/no claim you can see/) });
      await rc.claim('cl-x', { classification: 'restricted' });
      rc.as('faye');
      expect(await rc.refusal('drill:run', { claimIds: ['cl-x'] })).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      rc.cleanup();
    }
  });
});
