import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../shared/ipc/envelope';
import { tableDigest } from '../store/digest';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

/**
 * Every state-changing call appends exactly one receipt per logical change, in the same
 * transaction; every refused call appends none and leaves every table as it was. The steps run
 * in order on one case, each as a named reviewer, and each is checked on its own.
 */
let rc: ReviewCase;
let tables: string[];
beforeAll(async () => {
  rc = await createReviewCase();
  // The chain, and the index of which receipts name a target (written by a trigger on the chain).
  tables = (rc.session.db().prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('audit_receipt', 'receipt_target') ORDER BY name").all() as { name: string }[]).map((r) => r.name);
});
afterAll(() => rc.cleanup());

interface Step {
  name: string;
  as: string;
  channel: string;
  request: () => unknown;
  /** Receipts a success appends (0 for reads), or the error code a refusal answers. */
  expect: number | ErrorCode;
  /** The logical change lives in the chain itself (finalization certifies a head; no table moves). */
  receiptOnly?: true;
}

const ctx: Record<string, string> = {};
const checklist = { supportedByQuote: true, contradictingEvidence: false, sourceQualityMatchesClaim: true, outdated: false, marketingOrForum: false };
const context = {
  sourceType: 'edr', sourceRef: 'edr://acme/alert/1', sourceVersion: '3', observedAt: '2026-11-19T22:00:00.000Z', effectiveFrom: null, validUntil: null,
  producerType: 'tool', producer: 'defender', tenant: 'acme', classification: 'internal', trustTier: 'trusted', confidence: 0.8,
  independenceGroup: 'edr', validationMethod: 'signature', appliesTo: ['acme'],
};

const steps: Step[] = [
  { name: 'actor:create', as: 'admin', channel: 'actor:create', request: () => ({ passphrase: TEST_PASSPHRASE, actorId: 'hal', displayName: 'Hal', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' }), expect: 1 },
  { name: 'actor:create by a reviewer', as: 'bob', channel: 'actor:create', request: () => ({ passphrase: TEST_PASSPHRASE, actorId: 'ivy', displayName: 'Ivy', role: 'admin', tenants: ['*'], maxClassification: 'restricted' }), expect: 'FORBIDDEN' },
  { name: 'actor:create twice', as: 'admin', channel: 'actor:create', request: () => ({ passphrase: TEST_PASSPHRASE, actorId: 'hal', displayName: 'Hal', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' }), expect: 'CONFLICT' },
  { name: 'actor:rekey', as: 'admin', channel: 'actor:rekey', request: () => ({ passphrase: TEST_PASSPHRASE, actorId: 'hal', reason: 'rotation' }), expect: 1 },
  { name: 'actor:rekey by a reviewer', as: 'bob', channel: 'actor:rekey', request: () => ({ passphrase: TEST_PASSPHRASE, actorId: 'hal', reason: 'x' }), expect: 'FORBIDDEN' },
  { name: 'evidence:ingest', as: 'admin', channel: 'evidence:ingest', request: () => ({ evidenceId: 'ev-a', title: 'EDR alert', kind: 'telemetry', content: 'powershell.exe -enc ...', context }), expect: 1 },
  { name: 'evidence:ingest invalid', as: 'admin', channel: 'evidence:ingest', request: () => ({ evidenceId: 'ev-b', title: '', kind: 'telemetry', content: 'x', context }), expect: 'VALIDATION' },
  { name: 'evidence:transition', as: 'admin', channel: 'evidence:transition', request: () => ({ revisionId: 'ev-a@1', to: 'VALIDATED', reason: 'checked' }), expect: 1 },
  { name: 'evidence:transition illegal', as: 'admin', channel: 'evidence:transition', request: () => ({ revisionId: 'ev-a@1', to: 'CANDIDATE', reason: 'x' }), expect: 'ILLEGAL_TRANSITION' },
  { name: 'claim:create', as: 'alice', channel: 'claim:create', request: () => ({ claimId: 'cl-a', statement: 'svc-backup ran encoded PowerShell', scope: ['acme'], tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 1, requiredKinds: [], quorumSize: 3 } }), expect: 1 },
  { name: 'claim:bind', as: 'alice', channel: 'claim:bind', request: () => ({ claimId: 'cl-a', revisionId: 'ev-a@1', relation: 'FULL_SUPPORT', role: 'REQUIRED' }), expect: 1 },
  { name: 'claim:bind twice', as: 'alice', channel: 'claim:bind', request: () => ({ claimId: 'cl-a', revisionId: 'ev-a@1', relation: 'FULL_SUPPORT', role: 'REQUIRED' }), expect: 'CONFLICT' },
  { name: 'review:get (read)', as: 'bob', channel: 'review:get', request: () => ({ claimId: 'cl-a' }), expect: 0 },
  { name: 'review:vote', as: 'bob', channel: 'review:vote', request: () => ({ claimId: 'cl-a', basis: ctx.basis, refuted: false, checklist, reason: 'EDR shows it' }), expect: 1 },
  { name: 'review:vote again (replaces, one receipt)', as: 'bob', channel: 'review:vote', request: () => ({ claimId: 'cl-a', basis: ctx.basis, refuted: false, checklist, reason: 'EDR shows it, rechecked' }), expect: 1 },
  { name: 'review:vote by the author', as: 'alice', channel: 'review:vote', request: () => ({ claimId: 'cl-a', basis: ctx.basis, refuted: false, checklist, reason: 'mine' }), expect: 'FORBIDDEN' },
  { name: 'review:vote stale basis', as: 'carol', channel: 'review:vote', request: () => ({ claimId: 'cl-a', basis: '0'.repeat(64), refuted: false, checklist, reason: 'r' }), expect: 'CONFLICT' },
  { name: 'review:vote malformed', as: 'carol', channel: 'review:vote', request: () => ({ claimId: 'cl-a', basis: ctx.basis, refuted: 'yes', checklist }), expect: 'VALIDATION' },
  { name: 'review:vote carol', as: 'carol', channel: 'review:vote', request: () => ({ claimId: 'cl-a', basis: ctx.basis, refuted: false, checklist, reason: 'agree' }), expect: 1 },
  { name: 'decision:propose', as: 'bob', channel: 'decision:propose', request: () => ({ claimId: 'cl-a', verdict: 'SUPPORTED', rationale: 'EDR telemetry and quorum' }), expect: 1 },
  { name: 'decision:propose second open', as: 'carol', channel: 'decision:propose', request: () => ({ claimId: 'cl-a', verdict: 'REFUTED', rationale: 'r' }), expect: 'CONFLICT' },
  { name: 'decision:propose without rationale', as: 'carol', channel: 'decision:propose', request: () => ({ claimId: 'cl-a', verdict: 'REFUTED', rationale: ' ' }), expect: 'VALIDATION' },
  { name: 'decision:approve by the proposer', as: 'bob', channel: 'decision:approve', request: () => ({ decisionId: ctx.d1, fingerprint: ctx.fp1 }), expect: 'FORBIDDEN' },
  { name: 'decision:approve by an analyst', as: 'alice', channel: 'decision:approve', request: () => ({ decisionId: ctx.d1, fingerprint: ctx.fp1 }), expect: 'FORBIDDEN' },
  { name: 'decision:approve wrong fingerprint', as: 'carol', channel: 'decision:approve', request: () => ({ decisionId: ctx.d1, fingerprint: 'a'.repeat(64) }), expect: 'CONFLICT' },
  { name: 'decision:approve', as: 'carol', channel: 'decision:approve', request: () => ({ decisionId: ctx.d1, fingerprint: ctx.fp1 }), expect: 1 },
  { name: 'decision:approve twice', as: 'dave', channel: 'decision:approve', request: () => ({ decisionId: ctx.d1, fingerprint: ctx.fp1 }), expect: 'CONFLICT' },
  { name: 'decision:propose NEEDS_MORE_EVIDENCE', as: 'dave', channel: 'decision:propose', request: () => ({ claimId: 'cl-a', verdict: 'NEEDS_MORE_EVIDENCE', rationale: 'wait for inventory' }), expect: 1 },
  { name: 'decision:withdraw by another', as: 'carol', channel: 'decision:withdraw', request: () => ({ decisionId: ctx.d2, reason: 'x' }), expect: 'FORBIDDEN' },
  { name: 'decision:withdraw', as: 'dave', channel: 'decision:withdraw', request: () => ({ decisionId: ctx.d2, reason: 'inventory arrived' }), expect: 1 },
  { name: 'decision:reject a withdrawn one', as: 'carol', channel: 'decision:reject', request: () => ({ decisionId: ctx.d2, reason: 'x' }), expect: 'CONFLICT' },
  { name: 'decision:propose UNRESOLVED', as: 'dave', channel: 'decision:propose', request: () => ({ claimId: 'cl-a', verdict: 'UNRESOLVED', rationale: 'r' }), expect: 1 },
  { name: 'decision:reject', as: 'carol', channel: 'decision:reject', request: () => ({ decisionId: ctx.d3, reason: 'it is resolved' }), expect: 1 },
  { name: 'decision:list (read)', as: 'carol', channel: 'decision:list', request: () => ({ claimId: 'cl-a' }), expect: 0 },
  { name: 'audit:verify (read)', as: 'carol', channel: 'audit:verify', request: () => ({}), expect: 0 },
  { name: 'case:gate (read)', as: 'carol', channel: 'case:gate', request: () => ({}), expect: 0 },
  { name: 'case:finalize by a reviewer', as: 'carol', channel: 'case:finalize', request: () => ({}), expect: 'FORBIDDEN' },
  { name: 'case:finalize', as: 'admin', channel: 'case:finalize', request: () => ({}), expect: 1, receiptOnly: true },
  { name: 'claim:create on a FINAL case', as: 'alice', channel: 'claim:create', request: () => ({ claimId: 'cl-after', statement: 'too late', tenant: 'acme', classification: 'internal' }), expect: 'CONFLICT' },
  { name: 'case:reopen by a reviewer', as: 'carol', channel: 'case:reopen', request: () => ({ reason: 'mine' }), expect: 'FORBIDDEN' },
  { name: 'case:reopen', as: 'admin', channel: 'case:reopen', request: () => ({ reason: 'EDR re-export arrived' }), expect: 1, receiptOnly: true },
  { name: 'evidence:revise (new revision + old one superseded: one action, one receipt)', as: 'admin', channel: 'evidence:revise', request: () => ({ supersedes: 'ev-a@1', content: 'powershell.exe -enc ... (full command line)', reason: 'EDR re-export with the full command line' }), expect: 1 },
  { name: 'case:finalize while blocked (decision on superseded evidence)', as: 'admin', channel: 'case:finalize', request: () => ({}), expect: 0 },
];

describe('receipts per logical change', () => {
  it.each(steps.map((s, i) => [i, s.name, s] as const))('%i %s', async (_i, _name, step) => {
    rc.as(step.as);
    const receiptsBefore = rc.receiptCount();
    const stateBefore = tableDigest(rc.casePath, tables);
    const allBefore = tableDigest(rc.casePath);
    const envelope = await rc.raw(step.channel, step.request());
    const appended = rc.receiptCount() - receiptsBefore;
    if (typeof step.expect === 'number') {
      expect(envelope.ok ? 'ok' : `${envelope.error.code}: ${envelope.error.message}`).toBe('ok');
      expect(appended).toBe(step.expect);
      // Nothing changes without a receipt, and a receipt always records a change.
      expect(tableDigest(rc.casePath, tables) !== stateBefore).toBe(step.expect > 0 && !step.receiptOnly);
    } else {
      expect(envelope.ok ? 'ok' : envelope.error.code).toBe(step.expect);
      expect(appended).toBe(0);
      expect(tableDigest(rc.casePath)).toBe(allBefore);
    }
    if (envelope.ok) {
      const value = envelope.value as { basis?: string; decisionId?: string; fingerprint?: string };
      if (step.channel === 'review:get') ctx.basis = value.basis!;
      if (step.channel === 'decision:propose') {
        const k = `d${Object.keys(ctx).filter((x) => /^d\d$/.test(x)).length + 1}`;
        ctx[k] = value.decisionId!;
        ctx[`fp${k.slice(1)}`] = value.fingerprint!;
      }
    }
    rc.as('admin');
  });

  it('leaves a chain that verifies after all of it', async () => {
    expect(await rc.call('audit:verify', {})).toMatchObject({ ok: true, firstBroken: null });
  });
});
