import { canonicalJson } from '../../../shared/domain/canonical';
import { EVIDENCE_STRENGTH, type LifecycleState } from '../../../shared/domain/enums';
import { runChecklist, VALIDATION_CHECKS, type CheckResult, type ValidationCheckId } from '../../../shared/domain/validationChecklist';
import type { ValidationRunView } from '../../../shared/ipc/channels/evidence';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { toContext, type RevisionRow } from '../store/evidenceRows';
import { traceRevisionRow } from './provenance';

/**
 * The validation checklist against the store: gathers what the pure rule needs (the recomputed
 * hash, the provenance trace as the validating actor sees it) and stores runs. The dry run and the
 * real transition both call checklistFor, so what the reviewer previews is what gets enforced.
 */

export function checklistFor(ctx: ServiceContext, row: RevisionRow): CheckResult[] {
  const c = toContext(row);
  // Only derived evidence needs its trace for the checklist; skip the walk for everything else.
  const tracedSources = EVIDENCE_STRENGTH[row.kind] === 'derived' ? traceRevisionRow(ctx, row).originalSources.length : 0;
  return runChecklist(
    {
      kind: row.kind,
      content: row.content,
      mediaType: row.media_type,
      contentSha256: row.content_sha256,
      computedSha256: sha256Hex(row.content),
      sourceType: c.sourceType,
      sourceRef: c.sourceRef,
      producer: c.producer,
      sourceVersion: c.sourceVersion,
      observedAt: c.observedAt,
      appliesTo: c.appliesTo,
      tenant: c.tenant,
      classification: c.classification,
      tracedSources,
    },
    { clearance: ctx.actor, now: ctx.now() },
  );
}

/** Stores one run with every check's result; a failed run is only stored with its override reason. */
export function storeValidationRun(
  ctx: ServiceContext,
  run: { revisionId: string; fromState: LifecycleState; checks: readonly CheckResult[]; overrideReason: string | null },
): number {
  const passed = run.checks.every((c) => c.passed);
  const info = ctx.db
    .prepare('INSERT INTO validation_run (revision_id, from_state, actor, at, passed, override_reason) VALUES (?, ?, ?, ?, ?, ?)')
    .run(run.revisionId, run.fromState, ctx.actor.actorId, ctx.now(), passed ? 1 : 0, passed ? null : run.overrideReason);
  const runId = Number(info.lastInsertRowid);
  const insert = ctx.db.prepare('INSERT INTO validation_check (run_id, check_id, passed, detail) VALUES (?, ?, ?, ?)');
  for (const c of run.checks) insert.run(runId, c.id, c.passed ? 1 : 0, c.detail);
  return runId;
}

export function latestValidationRun(ctx: ServiceContext, revisionId: string): ValidationRunView | null {
  const run = ctx.db
    .prepare('SELECT * FROM validation_run WHERE revision_id = ? ORDER BY run_id DESC LIMIT 1')
    .get(revisionId) as
    | { run_id: number; revision_id: string; from_state: LifecycleState; actor: string; at: string; passed: number; override_reason: string | null }
    | undefined;
  if (!run) return null;
  const rows = ctx.db.prepare('SELECT check_id, passed, detail FROM validation_check WHERE run_id = ?').all(run.run_id) as {
    check_id: ValidationCheckId;
    passed: number;
    detail: string;
  }[];
  // Checklist order, not storage order, so the UI lists checks the same way every time.
  const order = (id: ValidationCheckId) => VALIDATION_CHECKS.indexOf(id);
  return {
    runId: run.run_id,
    revisionId: run.revision_id,
    fromState: run.from_state,
    actor: run.actor,
    at: run.at,
    passed: run.passed === 1,
    overrideReason: run.override_reason,
    checks: rows
      .sort((a, b) => order(a.check_id) - order(b.check_id))
      .map((r) => ({ id: r.check_id, passed: r.passed === 1, detail: r.detail })),
  };
}

/**
 * What a stored validation run says, as one digest: who ran it from which state, whether it
 * passed, the override, and each check's result and detail. The transition's receipt records it
 * and verification recomputes it (the row's time is the receipt's business).
 */
export function validationRunDigest(db: ServiceContext['db'], runId: number): string {
  const run = db.prepare('SELECT revision_id, from_state, actor, passed, override_reason FROM validation_run WHERE run_id = ?').get(runId);
  const checks = db.prepare('SELECT check_id, passed, detail FROM validation_check WHERE run_id = ? ORDER BY check_id').all(runId);
  return sha256Hex(canonicalJson({ run, checks }));
}
