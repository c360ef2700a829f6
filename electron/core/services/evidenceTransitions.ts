import type { LifecycleState } from '../../../shared/domain/enums';
import { canTransition, describeIllegalTransition } from '../../../shared/domain/lifecycle';
import { failedChecks } from '../../../shared/domain/validationChecklist';
import type { ValidationRunView } from '../../../shared/ipc/channels/evidence';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { conflict, forbidden, invalid, WorkbenchError } from '../errors';
import { insertTransition, loadVisibleRevision, type RevisionRow } from '../store/evidenceRows';
import type { WrittenFence } from '../store/fenceRows';
import { fenceTransition } from './fence';
import { reverifySpan, spanOf } from './sources';
import { checklistFor, latestValidationRun, storeValidationRun, validationRunDigest } from './validation';
import { writeTransaction } from '../store/caseFile';

/** Transitions that take evidence away from everyone: only reviewers and admins may make them. */
const REVIEWER_ONLY: ReadonlySet<LifecycleState> = new Set(['VALIDATED', 'REVOKED', 'SUPERSEDED']);

type TransitionRequest = ParsedRequestOf<'evidence:transition'>;

/** What one applied lifecycle move wrote; the caller puts it into its one receipt. */
export interface AppliedTransition {
  revisionId: string;
  from: LifecycleState;
  to: LifecycleState;
  reason: string;
  supportingRef: string | null;
  stateVersion: number;
  fence: WrittenFence | null;
  validation: { runId: number; failed: string[]; overrideReason: string | null; digest: string } | null;
}

/**
 * One lifecycle move of a loaded revision, inside the caller's transaction, without a receipt:
 * the rules (lifecycle table, role, validation checklist), the fence of a move out of normal flows
 * (protect first, DESIGN §3.5), the compare-and-swap on state_version and the transition row.
 * evidence:transition receipts it alone; evidence:revise receipts it with the new revision.
 */
export function applyTransition(ctx: ServiceContext, row: RevisionRow, req: TransitionRequest, channel: string): AppliedTransition {
  if (!ctx.db.inTransaction) throw new Error(`applyTransition(${row.revision_id}) must run inside the change's transaction`);
  const from = row.state;
  if (!canTransition(from, req.to)) {
    throw new WorkbenchError('ILLEGAL_TRANSITION', `${channel}: ${row.revision_id}: ${describeIllegalTransition(from, req.to)}`);
  }
  if (REVIEWER_ONLY.has(req.to) && ctx.actor.role === 'analyst') {
    throw forbidden(`${channel}: moving evidence to ${req.to} needs a reviewer or admin; ${ctx.actor.actorId} is an analyst`);
  }
  if (req.overrideReason !== undefined && req.to !== 'VALIDATED') {
    throw invalid(`${channel}: overrideReason only applies to moves to VALIDATED; leave it out for ${req.to}`, [
      { path: ['overrideReason'], message: 'only for VALIDATED' },
    ]);
  }
  // The checklist gates every move to VALIDATED (first validation and re-validation after a
  // dispute). It runs before anything is written, so a refusal leaves no trace.
  const checks = req.to === 'VALIDATED' ? checklistFor(ctx, row) : null;
  const failed = checks ? failedChecks(checks) : [];
  if (failed.length > 0 && req.overrideReason === undefined) {
    throw invalid(
      `${channel}: ${row.revision_id} failed the validation checklist: ${failed.map((c) => `${c.id} (${c.detail})`).join('; ')}; ` +
        'correct the evidence with evidence:revise, or as a reviewer override with overrideReason',
      failed.map((c) => ({ path: ['validation', c.id], message: c.detail })),
    );
  }
  const supportingRef = req.supportingRef ?? null;
  // Protect first (DESIGN §3.5): a move that takes the revision out of normal flows fences its
  // dependents in this very transaction, and the fence goes into the move's receipt.
  const fence = fenceTransition(ctx, { revisionId: row.revision_id, from, to: req.to, reason: req.reason, supportingRef });
  const changed = ctx.db
    .prepare('UPDATE evidence_revision SET state = ?, state_version = state_version + 1 WHERE revision_id = ? AND state_version = ?')
    .run(req.to, row.revision_id, row.state_version).changes;
  // The row was read in this same write transaction: the compare-and-swap cannot lose here, and stays so no caller can ever skip a move.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: unreachable inside the write transaction (see above)
  if (changed !== 1) throw conflict(`${channel}: ${row.revision_id} changed while you were deciding; reload and try again`);
  insertTransition(ctx, { revisionId: row.revision_id, from, to: req.to, reason: req.reason, supportingRef });
  const overrideReason = failed.length > 0 ? (req.overrideReason ?? null) : null;
  const runId = checks ? storeValidationRun(ctx, { revisionId: row.revision_id, fromState: from, checks, overrideReason }) : null;
  return {
    revisionId: row.revision_id,
    from,
    to: req.to,
    reason: req.reason,
    supportingRef,
    stateVersion: row.state_version + 1,
    fence,
    validation: runId !== null ? { runId, failed: failed.map((c) => c.id), overrideReason, digest: validationRunDigest(ctx.db, runId) } : null,
  };
}

export function transitionEvidence(
  ctx: ServiceContext,
  req: TransitionRequest,
): { revisionId: string; from: LifecycleState; to: LifecycleState; validation?: ValidationRunView } {
  return writeTransaction(ctx.db, () => {
    const row = loadVisibleRevision(ctx.db, ctx.actor, req.revisionId, 'evidence:transition');
    const t = applyTransition(ctx, row, req, 'evidence:transition');
    appendReceipt(ctx, {
      action: 'evidence:transition',
      targets: [`revision:${req.revisionId}`],
      body: {
        revisionId: req.revisionId, from: t.from, to: t.to, reason: t.reason, supportingRef: t.supportingRef,
        ...(t.validation ? { validation: t.validation } : {}),
        ...(t.fence ? { effects: { fence: t.fence } } : {}),
      },
      pre: { revisionId: req.revisionId, state: t.from, stateVersion: row.state_version },
      post: { revisionId: req.revisionId, state: t.to, stateVersion: t.stateVersion },
    });
    const validation = t.validation ? latestValidationRun(ctx, req.revisionId) : null;
    return { revisionId: req.revisionId, from: t.from, to: t.to, ...(validation ? { validation } : {}) };
  });
}

/**
 * evidence:validateMany: each item is validated exactly as evidence:transition would validate it
 * (its checklist run, its own receipt), all in one transaction. An item that moved since it was
 * listed, or whose checklist fails (an override is a judgement made one revision at a time), is
 * refused with its id, and nothing is written.
 */
export function validateMany(ctx: ServiceContext, req: ParsedRequestOf<'evidence:validateMany'>): { validated: { revisionId: string; from: LifecycleState }[] } {
  const ids = req.items.map((i) => i.revisionId);
  const repeated = ids.find((id, n) => ids.indexOf(id) !== n);
  if (repeated !== undefined) throw invalid(`evidence:validateMany: ${repeated} is listed twice`, [{ path: ['items'], message: 'each revision once' }]);
  return writeTransaction(ctx.db, () => ({
    validated: req.items.map(({ revisionId, from }, n) => {
      const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:validateMany');
      if (row.state !== from) {
        throw conflict(`evidence:validateMany: ${revisionId} is ${row.state} now, not ${from} as listed; nothing was validated. Reload the queue and select again`);
      }
      try {
        return { revisionId, from: transitionEvidence(ctx, { revisionId, to: 'VALIDATED', reason: req.reason }).from };
      } catch (err) {
        if (!(err instanceof WorkbenchError)) throw err;
        // Stryker disable next-line Regex: equivalent; evidence:transition's refusals start with its name, so the anchor never decides
        throw new WorkbenchError(err.code, `evidence:validateMany: item ${n + 1} (${revisionId}): ${err.message.replace(/^evidence:transition: /, '')}; nothing was validated (an override is given one revision at a time, from its detail)`, err.issues?.map((i) => ({ ...i, path: ['items', n, ...i.path] })));
      }
    }),
  }));
}

/**
 * evidence:verifySpan: re-extracts the quoted span from the stored source and re-hashes it. A
 * mismatch quarantines the revision (one lifecycle transition, one receipt) when the lifecycle
 * allows it; a revision already out of normal flows just reports the mismatch.
 */
export function verifySpan(ctx: ServiceContext, revisionId: string) {
  return writeTransaction(ctx.db, () => {
    const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:verifySpan');
    const span = spanOf(ctx, revisionId);
    if (!span) throw invalid(`evidence:verifySpan: ${revisionId} quotes no source span; only evidence ingested with a span can be verified`);
    // Stryker disable next-line StringLiteral: unreachable; the channel names a source the actor cannot see, and a span's source is of the revision's tenant at no higher classification (sources.ts), so whoever sees the revision sees it
    const reason = reverifySpan(ctx, revisionId, span, 'evidence:verifySpan');
    const result = { revisionId, sourceId: span.sourceId, reason, quarantined: false, state: row.state };
    if (reason === null) return { ...result, ok: true };
    if (!canTransition(row.state, 'QUARANTINED')) return { ...result, ok: false };
    transitionEvidence(ctx, { revisionId, to: 'QUARANTINED', reason: `evidence:verifySpan: ${reason}`, supportingRef: `source:${span.sourceId}` });
    return { ...result, ok: false, quarantined: true, state: 'QUARANTINED' as const };
  });
}
