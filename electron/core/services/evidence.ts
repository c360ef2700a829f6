import { randomUUID } from 'node:crypto';
import type { LifecycleState } from '../../../shared/domain/enums';
import { screenContent, type InjectionMatch } from '../../../shared/domain/injection';
import { canTransition, describeIllegalTransition } from '../../../shared/domain/lifecycle';
import type { RevisionSummary, ValidityContext } from '../../../shared/domain/schemas';
import { usability } from '../../../shared/domain/usable';
import { failedChecks } from '../../../shared/domain/validationChecklist';
import type { EvidenceDetail, ValidationRunView } from '../../../shared/ipc/channels/evidence';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, forbidden, invalid, WorkbenchError } from '../errors';
import { aclFilter, canSee } from '../store/acl';
import { loadVisibleRevision, SUMMARY_COLUMNS, toContext, toDetail, toSummary, usabilityInput, type RevisionRow } from '../store/evidenceRows';
import { fenceTransition } from './fence';
import { ensureRevisionNode, ensureSourceNode, insertEdge } from './provenance';
import { checkSpan, insertSpan, reverifySpan, spanOf } from './sources';
import { checklistFor, latestValidationRun, storeValidationRun } from './validation';

export interface IngestOutcome {
  revisionId: string;
  state: LifecycleState;
  screening: { flagged: boolean; matches: InjectionMatch[] };
}

/** Transitions that take evidence away from everyone: only reviewers and admins may make them. */
const REVIEWER_ONLY: ReadonlySet<LifecycleState> = new Set(['VALIDATED', 'REVOKED', 'SUPERSEDED']);

function screen(content: string, declaredSha256: string | undefined, actualSha256: string) {
  const screening = screenContent(content);
  const matches: InjectionMatch[] = [...screening.matches];
  if (declaredSha256 !== undefined && declaredSha256 !== actualSha256) {
    matches.push({
      patternId: 'hash-mismatch',
      reason: `declared SHA-256 ${declaredSha256.slice(0, 12)}… does not match the content's ${actualSha256.slice(0, 12)}…`,
      excerpt: '',
    });
  }
  return { flagged: matches.length > 0, matches };
}

function insertRevision(
  ctx: ServiceContext,
  r: { revisionId: string; evidenceId: string; revision: number; supersedes: string | null; state: LifecycleState; kind: string; content: string; sha: string; mediaType: string; context: ValidityContext },
): void {
  const c = r.context;
  ctx.db
    .prepare(
      `INSERT INTO evidence_revision (revision_id, evidence_id, revision, supersedes, state, kind, content,
         content_sha256, media_type, source_type, source_ref, source_version, observed_at, effective_from,
         valid_until, producer_type, producer, tenant, classification, trust_tier, confidence,
         independence_group, validation_method, applies_to, created_at, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      r.revisionId, r.evidenceId, r.revision, r.supersedes, r.state, r.kind, r.content, r.sha, r.mediaType,
      c.sourceType, c.sourceRef, c.sourceVersion, c.observedAt, c.effectiveFrom, c.validUntil, c.producerType,
      c.producer, c.tenant, c.classification, c.trustTier, c.confidence, c.independenceGroup,
      c.validationMethod, JSON.stringify(c.appliesTo), ctx.now(), ctx.actor.actorId,
    );
}

function recordTransition(ctx: ServiceContext, revisionId: string, from: LifecycleState | null, to: LifecycleState, reason: string, supportingRef: string | null): void {
  ctx.db
    .prepare(
      `INSERT INTO evidence_transition (revision_id, from_state, to_state, reason, actor, at, supporting_ref)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(revisionId, from, to, reason, ctx.actor.actorId, ctx.now(), supportingRef);
}

function initialState(screening: { flagged: boolean; matches: InjectionMatch[] }): { state: LifecycleState; reason: string } {
  if (!screening.flagged) return { state: 'CANDIDATE', reason: 'observed on ingest; not yet validated' };
  return {
    state: 'QUARANTINED',
    reason: `quarantined on ingest: ${screening.matches.map((m) => m.reason).join('; ')}`,
  };
}

function assertWritable(ctx: ServiceContext, context: ValidityContext, channel: string): void {
  if (!canSee(ctx.actor, context)) {
    throw forbidden(`${channel}: your clearance does not cover tenant ${context.tenant} at ${context.classification}; ask an admin or choose another tenant`);
  }
}

export function ingestEvidence(ctx: ServiceContext, req: ParsedRequestOf<'evidence:ingest'>): IngestOutcome {
  assertWritable(ctx, req.context, 'evidence:ingest');
  const evidenceId = req.evidenceId ?? `ev-${randomUUID().slice(0, 8)}`;
  const sha = sha256Hex(req.content);
  const revisionId = `${evidenceId}@1`;
  return ctx.db.transaction(() => {
    const exists = ctx.db.prepare('SELECT 1 FROM evidence_lineage WHERE evidence_id = ?').get(evidenceId);
    if (exists) throw conflict(`evidence:ingest: evidence ${evidenceId} already exists; use evidence:revise to add a corrected revision`);
    const span = req.span ? checkSpan(ctx, req.span, req.context, 'evidence:ingest') : null;
    const screening = screen(req.content, req.declaredSha256, sha);
    if (span?.mismatch) {
      screening.matches.push({ patternId: 'span-mismatch', reason: span.mismatch, excerpt: '' });
      screening.flagged = true;
    }
    const { state, reason } = initialState(screening);
    ctx.db
      .prepare('INSERT INTO evidence_lineage (evidence_id, title, created_at, created_by) VALUES (?, ?, ?, ?)')
      .run(evidenceId, req.title, ctx.now(), ctx.actor.actorId);
    insertRevision(ctx, { revisionId, evidenceId, revision: 1, supersedes: null, state, kind: req.kind, content: req.content, sha, mediaType: req.mediaType, context: req.context });
    recordTransition(ctx, revisionId, null, state, reason, null);
    let spanBody: Record<string, unknown> | null = null;
    if (req.span && span) {
      const quoteSha256 = insertSpan(ctx, revisionId, req.span);
      spanBody = { sourceId: req.span.sourceId, start: req.span.start, end: req.span.end, quoteSha256, matches: span.mismatch === null };
      // A verified quote is a derivation: the revision traces to the source it quotes, so copies
      // quoting one document count as one source. A mismatched quote proves nothing; no edge.
      if (span.mismatch === null) {
        const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:ingest');
        insertEdge(ctx, 'wasDerivedFrom', ensureRevisionNode(ctx, row, []), ensureSourceNode(ctx, span.source, []));
      }
    }
    appendReceipt(ctx, {
      action: 'evidence:ingest',
      targets: [`revision:${revisionId}`, ...(req.span ? [`source:${req.span.sourceId}`] : [])],
      body: { revisionId, title: req.title, kind: req.kind, state, screening: screening.matches.map((m) => m.patternId), ...(spanBody ? { span: spanBody } : {}) },
      post: { revisionId, state, contentSha256: sha },
      artifacts: { content: sha },
    });
    return { revisionId, state, screening };
  })();
}

export function transitionEvidence(
  ctx: ServiceContext,
  req: ParsedRequestOf<'evidence:transition'>,
): { revisionId: string; from: LifecycleState; to: LifecycleState; validation?: ValidationRunView } {
  return ctx.db.transaction(() => {
    const row = loadVisibleRevision(ctx.db, ctx.actor, req.revisionId, 'evidence:transition');
    const from = row.state;
    if (!canTransition(from, req.to)) {
      throw new WorkbenchError('ILLEGAL_TRANSITION', `evidence:transition: ${req.revisionId}: ${describeIllegalTransition(from, req.to)}`);
    }
    if (REVIEWER_ONLY.has(req.to) && ctx.actor.role === 'analyst') {
      throw forbidden(`evidence:transition: moving evidence to ${req.to} needs a reviewer or admin; ${ctx.actor.actorId} is an analyst`);
    }
    if (req.overrideReason !== undefined && req.to !== 'VALIDATED') {
      throw invalid(`evidence:transition: overrideReason only applies to moves to VALIDATED; leave it out for ${req.to}`, [
        { path: ['overrideReason'], message: 'only for VALIDATED' },
      ]);
    }
    // The checklist gates every move to VALIDATED (first validation and re-validation after a
    // dispute). It runs before anything is written, so a refusal leaves no trace.
    const checks = req.to === 'VALIDATED' ? checklistFor(ctx, row) : null;
    const failed = checks ? failedChecks(checks) : [];
    if (failed.length > 0 && req.overrideReason === undefined) {
      throw invalid(
        `evidence:transition: ${req.revisionId} failed the validation checklist: ${failed.map((c) => `${c.id} (${c.detail})`).join('; ')}; ` +
          'correct the evidence with evidence:revise, or as a reviewer override with overrideReason',
        failed.map((c) => ({ path: ['validation', c.id], message: c.detail })),
      );
    }
    const supportingRef = req.supportingRef ?? null;
    // Protect first (DESIGN §3.5): a move that takes the revision out of normal flows fences its
    // dependents in this very transaction, and the fence goes into this transition's receipt.
    const fence = fenceTransition(ctx, { revisionId: req.revisionId, from, to: req.to, reason: req.reason, supportingRef });
    const changed = ctx.db
      .prepare('UPDATE evidence_revision SET state = ?, state_version = state_version + 1 WHERE revision_id = ? AND state_version = ?')
      .run(req.to, req.revisionId, row.state_version).changes;
    if (changed !== 1) throw conflict(`evidence:transition: ${req.revisionId} changed while you were deciding; reload and try again`);
    recordTransition(ctx, req.revisionId, from, req.to, req.reason, supportingRef);
    const overrideReason = failed.length > 0 ? (req.overrideReason ?? null) : null;
    const runId = checks ? storeValidationRun(ctx, { revisionId: req.revisionId, fromState: from, checks, overrideReason }) : null;
    appendReceipt(ctx, {
      action: 'evidence:transition',
      targets: [`revision:${req.revisionId}`],
      body: {
        revisionId: req.revisionId, from, to: req.to, reason: req.reason, supportingRef,
        ...(runId !== null ? { validation: { runId, failed: failed.map((c) => c.id), overrideReason } } : {}),
        ...(fence ? { effects: { fence } } : {}),
      },
      pre: { revisionId: req.revisionId, state: from, stateVersion: row.state_version },
      post: { revisionId: req.revisionId, state: req.to, stateVersion: row.state_version + 1 },
    });
    const validation = runId !== null ? latestValidationRun(ctx, req.revisionId) : null;
    return { revisionId: req.revisionId, from, to: req.to, ...(validation ? { validation } : {}) };
  })();
}

/**
 * A correction: a new revision in the same lineage. The old one becomes SUPERSEDED when the
 * lifecycle allows it (historically true, no longer applicable); otherwise it keeps its state.
 */
export function reviseEvidence(ctx: ServiceContext, req: ParsedRequestOf<'evidence:revise'>): IngestOutcome {
  return ctx.db.transaction(() => {
    const old = loadVisibleRevision(ctx.db, ctx.actor, req.supersedes, 'evidence:revise');
    const latest = ctx.db.prepare('SELECT MAX(revision) AS n FROM evidence_revision WHERE evidence_id = ?').get(old.evidence_id) as { n: number };
    if (latest.n !== old.revision) {
      throw conflict(`evidence:revise: ${req.supersedes} is not the latest revision of ${old.evidence_id} (latest is @${latest.n}); revise that one`);
    }
    const context: ValidityContext = { ...toContext(old), ...(req.context ?? {}) };
    assertWritable(ctx, context, 'evidence:revise');
    const sha = sha256Hex(req.content);
    const screening = screen(req.content, req.declaredSha256, sha);
    const { state, reason } = initialState(screening);
    const revisionId = `${old.evidence_id}@${old.revision + 1}`;
    insertRevision(ctx, { revisionId, evidenceId: old.evidence_id, revision: old.revision + 1, supersedes: old.revision_id, state, kind: old.kind, content: req.content, sha, mediaType: old.media_type, context });
    recordTransition(ctx, revisionId, null, state, `${reason} (revision of ${old.revision_id}: ${req.reason})`, old.revision_id);
    appendReceipt(ctx, {
      action: 'evidence:revise',
      targets: [`revision:${revisionId}`, `revision:${old.revision_id}`],
      body: { revisionId, supersedes: old.revision_id, state, reason: req.reason, screening: screening.matches.map((m) => m.patternId) },
      post: { revisionId, state, contentSha256: sha },
      artifacts: { content: sha },
    });
    if (canTransition(old.state, 'SUPERSEDED')) {
      transitionEvidence(ctx, { revisionId: old.revision_id, to: 'SUPERSEDED', reason: `superseded by ${revisionId}: ${req.reason}`, supportingRef: revisionId });
    }
    return { revisionId, state, screening };
  })();
}

/** The page query of evidence:list; exported so a test can hold its query plan to an index. */
export function listEvidenceQuery(actor: ServiceContext['actor'], req: ParsedRequestOf<'evidence:list'>): { sql: string; params: (string | number)[] } {
  const acl = aclFilter(actor, 'r', { useIndex: false });
  const where = [acl.sql];
  const params: (string | number)[] = [...acl.params];
  const filter = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(sql);
    params.push(value);
  };
  filter('r.state = ?', req.state);
  filter('r.kind = ?', req.kind);
  filter('r.revision_id > ?', req.after);
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id)
       WHERE ${where.join(' AND ')} ORDER BY r.revision_id LIMIT ?`,
    params: [...params, req.limit + 1],
  };
}

export function listEvidence(ctx: ServiceContext, req: ParsedRequestOf<'evidence:list'>): { items: RevisionSummary[]; nextCursor: string | null } {
  const query = listEvidenceQuery(ctx.actor, req);
  const rows = ctx.db.prepare(query.sql).all(...query.params) as RevisionRow[];
  const page = rows.slice(0, req.limit);
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > req.limit ? page[page.length - 1]!.revision_id : null,
  };
}

export function getEvidence(ctx: ServiceContext, revisionId: string): EvidenceDetail {
  const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:get');
  const detail = toDetail(ctx.db, row);
  return {
    ...detail,
    // Scope is empty here: applicability to a particular claim is judged where the claim is.
    usability: usability(usabilityInput(row), { clearance: ctx.actor, now: ctx.now(), scope: [] }),
    validation: latestValidationRun(ctx, revisionId),
    span: spanOf(ctx, revisionId),
  };
}

/** evidence:validate: the checklist as a dry run; computes and answers, writes nothing. */
export function validateEvidence(ctx: ServiceContext, revisionId: string) {
  const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:validate');
  const checks = checklistFor(ctx, row);
  return { revisionId, state: row.state, canValidate: canTransition(row.state, 'VALIDATED'), passed: failedChecks(checks).length === 0, checks };
}

/**
 * evidence:verifySpan: re-extracts the quoted span from the stored source and re-hashes it. A
 * mismatch quarantines the revision (one lifecycle transition, one receipt) when the lifecycle
 * allows it; a revision already out of normal flows just reports the mismatch.
 */
export function verifySpan(ctx: ServiceContext, revisionId: string) {
  return ctx.db.transaction(() => {
    const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:verifySpan');
    const span = spanOf(ctx, revisionId);
    if (!span) throw invalid(`evidence:verifySpan: ${revisionId} quotes no source span; only evidence ingested with a span can be verified`);
    const reason = reverifySpan(ctx, span, 'evidence:verifySpan');
    const result = { revisionId, sourceId: span.sourceId, reason, quarantined: false, state: row.state };
    if (reason === null) return { ...result, ok: true };
    if (!canTransition(row.state, 'QUARANTINED')) return { ...result, ok: false };
    transitionEvidence(ctx, { revisionId, to: 'QUARANTINED', reason: `evidence:verifySpan: ${reason}`, supportingRef: `source:${span.sourceId}` });
    return { ...result, ok: false, quarantined: true, state: 'QUARANTINED' as const };
  })();
}
