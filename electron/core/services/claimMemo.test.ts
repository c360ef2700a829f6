import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { CAST } from '../../testing/reviewCase';
import { seededRandom } from '../../testing/seededRandom';
import { createTestCase, type TestCase } from '../../testing/testCase';

/**
 * claim:list, review:list and the gate keep derivations between reads (claimMemo.ts). Whatever
 * happens to a case, what they show must be what deriving afresh shows: claim:get and review:get
 * derive one claim with no memo at all. A seeded walk through every kind of write the
 * derivations read (bindings, lifecycle, revisions, copies, PROV, fences and the worker,
 * decisions, votes, unresolved marks), with the clock moving across validity bounds and two
 * clearances reading, compares them after every step.
 */

let tc: TestCase;
let clock: number;
beforeEach(async () => {
  clock = Date.parse('2026-11-20T08:00:00.000Z');
  tc = await createTestCase({ now: () => new Date((clock += 1000)).toISOString() });
  for (const actor of CAST) await tc.call('actor:create', actor);
});
afterEach(() => tc.cleanup());

const SUMMARY_KEYS = ['claimId', 'statement', 'generation', 'status', 'author', 'support', 'partialSupport', 'refute', 'projection', 'pendingRevalidation', 'projectionReasons', 'projectionVersion', 'missingKinds', 'bindings'] as const;
const pick = (detail: ResponseOf<'claim:get'>) => Object.fromEntries(SUMMARY_KEYS.map((k) => [k, detail[k]]));
const complete = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };

/** claim:list and review:list as `actorId` reads them, against claim:get and review:get of every claim they list. */
async function expectFreshAs(actorId: string, step: string): Promise<void> {
  tc.as(actorId);
  const listed = await tc.call('claim:list', {});
  const fresh = await Promise.all(listed.map((c) => tc.call('claim:get', { claimId: c.claimId })));
  expect(listed, `${step}: claim:list as ${actorId}`).toEqual(fresh.map(pick));
  const reviews = (await tc.call('review:list', {})).items;
  const freshReviews = await Promise.all(reviews.map((r) => tc.call('review:get', { claimId: r.claimId })));
  expect(
    reviews.map((r) => ({ claimId: r.claimId, decisionState: r.decisionState, verdict: r.verdict, quorumTier: r.quorumTier, status: r.status })),
    `${step}: review:list as ${actorId}`,
  ).toEqual(
    freshReviews.map((r, i) => ({
      claimId: r.claimId,
      decisionState: r.decisionState,
      verdict: r.effectiveDecision?.verdict ?? null,
      quorumTier: r.quorum?.tier ?? null,
      status: fresh[i]!.status,
    })),
  );
}

/** One validated revision bound in full support of a new claim `claimId`; the claim's status as claim:list shows it. */
async function oneSupportedClaim(claimId: string, context: Parameters<typeof ingestRequest>[1] = {}): Promise<{ revisionId: string; status: () => Promise<string> }> {
  tc.as('admin');
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(`ev-${claimId}`, context));
  tc.as('bob');
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
  tc.as('alice');
  await tc.call('claim:create', { claimId, statement: 'x', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 1 } });
  await tc.call('claim:bind', { claimId, revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
  return { revisionId, status: async () => (await tc.call('claim:list', {})).find((c) => c.claimId === claimId)!.status };
}

describe('claim derivations kept between reads', () => {
  it('always equal deriving afresh, through a seeded walk of every kind of write, the clock and two clearances', async () => {
    const r = seededRandom(4242);
    const pickOf = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const claims: string[] = [];
    const revisions: string[] = [];
    const contents: string[] = [];
    const proposals: { decisionId: string; fingerprint: string }[] = [];
    const attempt = async (actorId: string, channel: string, request: unknown) => {
      tc.as(actorId);
      return tc.raw(channel, request);
    };
    const ops: Record<string, () => Promise<unknown>> = {
      claim: async () => {
        const id = `cl-${claims.length}`;
        const out = await attempt('alice', 'claim:create', {
          claimId: id, statement: `claim ${id}`, scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal',
          policy: { minIndependentSources: 1 + Math.floor(r() * 2), requiredKinds: [], quorumSize: r() < 0.3 ? 2 : null },
        } satisfies RequestOf<'claim:create'>);
        if (out.ok) claims.push(id);
      },
      evidence: async () => {
        const n = revisions.length;
        const copy = contents.length > 0 && r() < 0.25;
        const content = copy ? pickOf(contents) : `sign-in of svc-backup on HOST-FS01 from 185.220.101.${n} at step ${n}`;
        const expires = r() < 0.3 ? new Date(clock + Math.floor(r() * 4) * 3_600_000).toISOString() : null;
        const out = await attempt('admin', 'evidence:ingest', ingestRequest(`ev-${n}`, {
          kind: 'log_record', content,
          context: { sourceRef: `siem:${n}`, independenceGroup: `g-${n % 3}`, validUntil: expires, effectiveFrom: new Date(clock - 60_000).toISOString(), classification: r() < 0.2 ? 'restricted' : 'internal' },
        }));
        if (!out.ok) return;
        const { revisionId } = out.value as ResponseOf<'evidence:ingest'>;
        if (!copy) contents.push(content);
        await attempt('bob', 'evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
        revisions.push(revisionId);
      },
      bind: () => attempt('alice', 'claim:bind', { claimId: pickOf(claims), revisionId: pickOf(revisions), relation: pickOf(['FULL_SUPPORT', 'FULL_SUPPORT', 'PARTIAL_SUPPORT', 'REFUTES'] as const), role: 'SUPPORTING' }),
      unbind: () => attempt('alice', 'claim:unbind', { claimId: pickOf(claims), revisionId: pickOf(revisions), reason: 'bound by mistake' }),
      lifecycle: () => attempt('bob', 'evidence:transition', { revisionId: pickOf(revisions), to: pickOf(['DISPUTED', 'VALIDATED', 'REVOKED', 'QUARANTINED'] as const), reason: 'reviewed again' }),
      revise: async () => {
        const out = await attempt('admin', 'evidence:revise', { supersedes: pickOf(revisions), content: `corrected at ${clock}`, reason: 'corrected' });
        if (out.ok) revisions.push((out.value as ResponseOf<'evidence:revise'>).revisionId);
      },
      derive: () => attempt('admin', 'prov:record', { tenant: 'acme', classification: 'internal', edges: [{ type: 'wasDerivedFrom', from: `rev:${pickOf(revisions)}`, to: `rev:${pickOf(revisions)}` }] }),
      independent: async () => {
        tc.as('admin');
        const { copies } = await tc.call('evidence:get', { revisionId: pickOf(revisions) });
        const link = copies[0];
        if (link) await attempt('bob', 'evidence:confirmIndependent', { revisionId: link.revisionId, copyOf: link.copyOf, reason: 'different collectors' });
      },
      worker: () => attempt('admin', 'revocation:runWorker', { maxJobs: 50 }),
      propose: async () => {
        const out = await attempt('bob', 'decision:propose', { claimId: pickOf(claims), verdict: pickOf(['SUPPORTED', 'REFUTED', 'NEEDS_MORE_EVIDENCE'] as const), rationale: 'weighed' });
        if (out.ok) proposals.push(out.value as { decisionId: string; fingerprint: string });
      },
      approve: async () => {
        const p = proposals.pop();
        if (p) await attempt('carol', 'decision:approve', { decisionId: p.decisionId, fingerprint: p.fingerprint });
      },
      vote: async () => {
        const claimId = pickOf(claims);
        tc.as('dave');
        const review = await tc.raw('review:get', { claimId });
        if (!review.ok) return;
        const basis = (review.value as ResponseOf<'review:get'>).basis;
        await attempt(pickOf(['dave', 'erin', 'carol']), 'review:vote', { claimId, basis, refuted: r() < 0.3, checklist: complete, reason: 'checked the quote' });
      },
      unresolved: () => attempt('bob', r() < 0.5 ? 'claim:markUnresolved' : 'claim:clearUnresolved', { claimId: pickOf(claims), reason: 'sources disagree' }),
      // The clock alone: hours pass, evidence with a valid_until expires.
      wait: async () => void (clock += Math.floor(r() * 3) * 3_600_000),
    };
    for (let i = 0; i < 3; i++) await ops.claim!();
    for (let i = 0; i < 4; i++) await ops.evidence!();
    const weighted = ['claim', 'evidence', 'evidence', 'bind', 'bind', 'bind', 'unbind', 'lifecycle', 'revise', 'derive', 'independent', 'worker', 'propose', 'propose', 'approve', 'approve', 'vote', 'unresolved', 'wait'];
    const seen = new Set<string>();
    for (let step = 0; step < 160; step++) {
      const op = pickOf(weighted);
      await ops[op]!();
      seen.add(op);
      await expectFreshAs(pickOf(['alice', 'faye']), `step ${step} (${op})`);
    }
    expect([...seen].sort()).toEqual(Object.keys(ops).sort());
    // The walk reached the states that matter, not only the easy ones.
    tc.as('alice');
    const statuses = new Set((await tc.call('claim:list', {})).map((c) => c.status));
    expect(statuses.size).toBeGreaterThan(1);
  }, 120_000);

  it('follow a valid_until passing with no write at all, and the clock moving back', async () => {
    const expires = new Date(clock + 3_600_000).toISOString();
    const { status } = await oneSupportedClaim('cl-exp', { context: { validUntil: expires, effectiveFrom: new Date(clock - 1000).toISOString() } });
    expect(await status()).toBe('SUPPORTED');
    const before = clock;
    clock = Date.parse(expires);
    expect(await status()).toBe('INSUFFICIENT');
    clock = before;
    expect(await status()).toBe('SUPPORTED');
  });

  it('see writes made by another connection (another process on the file), and a log pruned past them', async () => {
    const { revisionId, status } = await oneSupportedClaim('cl-1');
    expect(await status()).toBe('SUPPORTED');
    const other = new Database(tc.casePath);
    try {
      // Not through the channels (no receipt): what matters here is that the store logs it.
      other.prepare("UPDATE evidence_revision SET state = 'DISPUTED' WHERE revision_id = ?").run(revisionId);
      expect(await status()).toBe('INSUFFICIENT');
      other.prepare("UPDATE evidence_revision SET state = 'VALIDATED' WHERE revision_id = ?").run(revisionId);
      // 70,000 unrelated changes: the log keeps the last 65,536, so this reader is behind what it keeps.
      other.transaction(() => {
        const log = other.prepare('INSERT INTO claim_change (claim_id) VALUES (?)');
        for (let i = 0; i < 70_000; i++) log.run('cl-elsewhere');
      })();
      expect((other.prepare('SELECT MIN(seq) FROM claim_change').pluck().get() as number) > 1).toBe(true);
      expect(await status()).toBe('SUPPORTED');
    } finally {
      other.close();
    }
  });

  it('never keep what a write that was rolled back derived', async () => {
    const { revisionId } = await oneSupportedClaim('cl-1');
    const ctx = tc.session.context();
    const { listClaims } = await import('./claims');
    expect(listClaims(ctx)[0]!.status).toBe('SUPPORTED');
    // A write that reads the list after its own change, then fails: its reading must not outlive it.
    expect(() =>
      ctx.db.transaction(() => {
        ctx.db.prepare("UPDATE evidence_revision SET state = 'DISPUTED' WHERE revision_id = ?").run(revisionId);
        expect(listClaims(ctx)[0]!.status).toBe('INSUFFICIENT');
        throw new Error('refused after reading');
      })(),
    ).toThrow('refused after reading');
    // The next committed change reuses the rolled-back change's place in the log.
    await tc.call('claim:create', { claimId: 'cl-2', statement: 'y', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 1 } });
    expect(listClaims(ctx).map((c) => c.status)).toEqual(['SUPPORTED', 'INSUFFICIENT']);
  });

  /** A claim needing two independent sources, bound to two revisions from different sources. */
  async function twoSourceClaim(): Promise<{ a: string; b: string; status: () => Promise<string> }> {
    const ids: string[] = [];
    for (const n of [1, 2]) {
      tc.as('admin');
      const { revisionId } = await tc.call('evidence:ingest', ingestRequest(`ev-${n}`, { content: `process event ${n} on HOST-FS01`, context: { sourceRef: `edr:${n}`, independenceGroup: `g-${n}` } }));
      tc.as('bob');
      await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
      ids.push(revisionId);
    }
    tc.as('alice');
    await tc.call('claim:create', { claimId: 'cl-2s', statement: 'x', scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 2 } });
    for (const revisionId of ids) await tc.call('claim:bind', { claimId: 'cl-2s', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
    const status = async () => {
      const listed = (await tc.call('claim:list', {})).find((c) => c.claimId === 'cl-2s')!.status;
      expect(listed).toBe((await tc.call('claim:get', { claimId: 'cl-2s' })).status);
      return listed;
    };
    return { a: ids[0]!, b: ids[1]!, status };
  }

  it('see a copy link between two bound revisions appear and be confirmed independent', async () => {
    const { a, b, status } = await twoSourceClaim();
    expect(await status()).toBe('SUPPORTED');
    const other = new Database(tc.casePath);
    try {
      other
        .prepare("INSERT INTO evidence_copy (revision_id, copy_of, jaccard, containment, reason, detected_at) VALUES (?, ?, 1, 1, 'identical content', ?)")
        .run(b, a, new Date(clock).toISOString());
      expect(await status()).toBe('INSUFFICIENT');
      other.prepare("UPDATE evidence_copy SET independent_reason = 'different sensors', confirmed_by = 'bob', confirmed_at = ? WHERE revision_id = ?").run(new Date(clock).toISOString(), b);
      expect(await status()).toBe('SUPPORTED');
    } finally {
      other.close();
    }
  });

  it('see a PROV edge that joins two traces below what was derived (the change reaches further than its subject)', async () => {
    const { a, b, status } = await twoSourceClaim();
    tc.as('admin');
    const declare = (edges: RequestOf<'prov:record'>['edges'], nodes: RequestOf<'prov:record'>['nodes'] = []) =>
      tc.call('prov:record', { tenant: 'acme', classification: 'internal', nodes, edges });
    await declare(
      [
        { type: 'wasDerivedFrom', from: `rev:${a}`, to: 'report-a' },
        { type: 'wasDerivedFrom', from: `rev:${b}`, to: 'report-b' },
      ],
      [
        { kind: 'entity', id: 'report-a', label: 'vendor report A' },
        { kind: 'entity', id: 'report-b', label: 'vendor report B' },
        { kind: 'entity', id: 'origin', label: 'one leaked paste', sourceRef: 'paste:1' },
      ],
    );
    tc.as('alice');
    expect(await status()).toBe('SUPPORTED');
    tc.as('admin');
    // Both reports turn out to restate one original: one source, not two.
    await declare([
      { type: 'wasDerivedFrom', from: 'report-a', to: 'origin' },
      { type: 'wasDerivedFrom', from: 'report-b', to: 'origin' },
    ]);
    tc.as('alice');
    expect(await status()).toBe('INSUFFICIENT');
  });
});
