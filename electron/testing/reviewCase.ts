import type { Classification, EvidenceKind, Relation } from '../../shared/domain/enums';
import type { RequestOf } from '../../shared/ipc/contract';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from './testCase';

/**
 * Test helper (not a test): a case with a realistic cast built through the channels, as users
 * would build it. Reviewers: admin (the case creator), alice (analyst), bob, carol, dave and
 * erin (reviewers); faye is a reviewer cleared only for `internal` material.
 */
export const CAST = [
  { actorId: 'alice', displayName: 'Alice (analyst)', role: 'analyst', tenants: ['acme'], maxClassification: 'restricted', passphrase: TEST_PASSPHRASE },
  { actorId: 'bob', displayName: 'Bob (reviewer)', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted', passphrase: TEST_PASSPHRASE },
  { actorId: 'carol', displayName: 'Carol (reviewer)', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted', passphrase: TEST_PASSPHRASE },
  { actorId: 'dave', displayName: 'Dave (reviewer)', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted', passphrase: TEST_PASSPHRASE },
  { actorId: 'erin', displayName: 'Erin (reviewer)', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted', passphrase: TEST_PASSPHRASE },
  { actorId: 'faye', displayName: 'Faye (reviewer, internal only)', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal', passphrase: TEST_PASSPHRASE },
] as const satisfies RequestOf<'actor:create'>[];

export interface ReviewCase extends TestCase {
  /** Ingests a revision as admin and moves it to VALIDATED; returns its revision id. */
  evidence(id: string, options?: { classification?: Classification; kind?: EvidenceKind; group?: string }): Promise<string>;
  /** Creates a claim as `author` (default alice). */
  claim(id: string, options?: { author?: string; quorumSize?: number | null; classification?: Classification }): Promise<string>;
  bind(claimId: string, revisionId: string, relation?: Relation, as?: string): Promise<void>;
  receiptCount(): number;
}

/** A fake clock: every call is one second later, so receipts have distinct, reproducible times. */
export function steppingClock(start = '2026-11-20T08:00:00.000Z'): () => string {
  let t = Date.parse(start);
  return () => new Date((t += 1000)).toISOString();
}

export async function createReviewCase(): Promise<ReviewCase> {
  const tc = await createTestCase({ now: steppingClock() });
  for (const actor of CAST) await tc.call('actor:create', actor);
  const as = async <T>(actorId: string, run: () => Promise<T>): Promise<T> => {
    const before = tc.session.actor().actorId;
    tc.as(actorId);
    try {
      return await run();
    } finally {
      tc.as(before);
    }
  };
  return {
    ...tc,
    evidence: (id, options = {}) =>
      as('admin', async () => {
        const { revisionId } = await tc.call('evidence:ingest', {
          evidenceId: id,
          title: `Evidence ${id}`,
          kind: options.kind ?? 'log_record',
          content: `2026-11-19T22:0${id.length % 10}:00Z host-fs01 sign-in svc-backup from 185.220.101.${id.length} (${id})`,
          context: {
            sourceType: 'siem',
            sourceRef: `siem://acme/${id}`,
            sourceVersion: '7.4',
            observedAt: '2026-11-19T22:00:00.000Z',
            effectiveFrom: '2026-11-19T22:00:00.000Z',
            validUntil: null,
            producerType: 'tool',
            producer: 'splunk',
            tenant: 'acme',
            classification: options.classification ?? 'internal',
            trustTier: 'trusted',
            confidence: 0.9,
            independenceGroup: options.group ?? `group-${id}`,
            validationMethod: 'hash-and-source-check',
            appliesTo: ['acme'],
          },
        });
        await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'provenance, hash and time checked' });
        return revisionId;
      }),
    claim: (id, options = {}) =>
      as(options.author ?? 'alice', async () => {
        const c = await tc.call('claim:create', {
          claimId: id,
          statement: `Claim ${id}: account svc-backup was taken over`,
          scope: ['acme'],
          tenant: 'acme',
          classification: options.classification ?? 'internal',
          policy: { minIndependentSources: 1, requiredKinds: [], quorumSize: options.quorumSize ?? null },
        });
        return c.claimId;
      }),
    bind: (claimId, revisionId, relation = 'FULL_SUPPORT', actorId = 'alice') =>
      as(actorId, async () => {
        await tc.call('claim:bind', { claimId, revisionId, relation, role: 'SUPPORTING' });
      }),
    receiptCount: () => (tc.session.db().prepare('SELECT COUNT(*) AS n FROM audit_receipt').get() as { n: number }).n,
  };
}
