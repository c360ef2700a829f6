import { randomUUID } from 'node:crypto';
import { readCaseMeta } from './caseMeta';
import { scopedName } from './scopedNames';
import type { LifecycleState } from '../../../shared/domain/enums';
import { screenContent, type InjectionMatch, type ScreeningResult } from '../../../shared/domain/injection';
import { canTransition } from '../../../shared/domain/lifecycle';
import type { ValidityContext } from '../../../shared/domain/schemas';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, forbidden } from '../errors';
import { canSee } from '../store/acl';
import { insertTransition, loadVisibleRevision, toContext } from '../store/evidenceRows';
import { detectCopies } from './copies';
import { applyTransition } from './evidenceTransitions';
import { ensureRevisionNode, ensureSourceNode, insertEdge } from './provenance';
import { checkSpan, insertSpan, type SpanRequest } from './sources';
import { writeTransaction } from '../store/caseFile';

export interface IngestOutcome {
  revisionId: string;
  state: LifecycleState;
  screening: ScreeningResult;
  copies: { copyOf: string; reason: string }[];
}

/** Ingest screening: injection markers, a declared hash that does not match, a quote that does not match its source. */
function screen(content: string, declaredSha256: string | undefined, actualSha256: string, spanMismatch: string | null): ScreeningResult {
  const screening = screenContent(content);
  const matches: InjectionMatch[] = [...screening.matches];
  if (declaredSha256 !== undefined && declaredSha256 !== actualSha256) {
    matches.push({
      patternId: 'hash-mismatch',
      reason: `declared SHA-256 ${declaredSha256.slice(0, 12)}… does not match the content's ${actualSha256.slice(0, 12)}…`,
      excerpt: '',
    });
  }
  if (spanMismatch !== null) matches.push({ patternId: 'span-mismatch', reason: spanMismatch, excerpt: '' });
  return { flagged: matches.length > 0, matches, notices: screening.notices };
}

/**
 * Stores the span a new revision quotes and returns it for the receipt. A verified quote is a
 * derivation: the revision traces to the source it quotes, so copies quoting one document count
 * as one source. A mismatched quote proves nothing; no edge.
 */
function attachSpan(ctx: ServiceContext, revisionId: string, req: SpanRequest, checked: ReturnType<typeof checkSpan>, channel: string): Record<string, unknown> {
  const quoteSha256 = insertSpan(ctx, revisionId, req);
  const nodesAdded: string[] = [];
  if (checked.mismatch === null) {
    const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, channel);
    insertEdge(ctx, 'wasDerivedFrom', ensureRevisionNode(ctx, row, nodesAdded), ensureSourceNode(ctx, checked.source, nodesAdded));
  }
  // The provenance nodes this quote created, so verify can hold their author and time to this receipt.
  return { sourceId: req.sourceId, start: req.start, end: req.end, quoteSha256, matches: checked.mismatch === null, nodesAdded };
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

function initialState(screening: ScreeningResult): { state: LifecycleState; reason: string } {
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
  // A chosen name may come back qualified with its scope, so that taken-but-hidden and free answer alike.
  const evidenceId = req.evidenceId ? scopedName(req.evidenceId, req.context, ctx.actor, readCaseMeta(ctx.db).homeScope) : `ev-${randomUUID().slice(0, 8)}`;
  const sha = sha256Hex(req.content);
  const revisionId = `${evidenceId}@1`;
  return writeTransaction(ctx.db, () => {
    const exists = ctx.db.prepare('SELECT 1 FROM evidence_lineage WHERE evidence_id = ?').get(evidenceId);
    if (exists) throw conflict(`evidence:ingest: evidence ${evidenceId} already exists; use evidence:revise to add a corrected revision`);
    const span = req.span ? checkSpan(ctx, req.span, req.context, 'evidence:ingest') : null;
    const screening = screen(req.content, req.declaredSha256, sha, span?.mismatch ?? null);
    const { state, reason } = initialState(screening);
    ctx.db
      .prepare('INSERT INTO evidence_lineage (evidence_id, title, created_at, created_by) VALUES (?, ?, ?, ?)')
      .run(evidenceId, req.title, ctx.now(), ctx.actor.actorId);
    insertRevision(ctx, { revisionId, evidenceId, revision: 1, supersedes: null, state, kind: req.kind, content: req.content, sha, mediaType: req.mediaType, context: req.context });
    insertTransition(ctx, { revisionId, from: null, to: state, reason, supportingRef: null });
    const spanBody = req.span && span ? attachSpan(ctx, revisionId, req.span, span, 'evidence:ingest') : null;
    const found = detectCopies(ctx, { revisionId, evidenceId, kind: req.kind, content: req.content, contentSha256: sha, tenant: req.context.tenant, classification: req.context.classification });
    appendReceipt(ctx, {
      action: 'evidence:ingest',
      targets: [`revision:${revisionId}`, ...(req.span ? [`source:${req.span.sourceId}`] : [])],
      body: {
        revisionId, title: req.title, kind: req.kind, state, screening: screening.matches.map((m) => m.patternId),
        // The whole revision as stored, so verify can hold every column to this receipt.
        evidenceId, mediaType: req.mediaType, context: req.context, firstReason: reason,
        ...(spanBody ? { span: spanBody } : {}),
        copies: found.copies,
      },
      post: { revisionId, state, contentSha256: sha },
      artifacts: { content: sha, copySignature: found.signatureSha256 },
    });
    return { revisionId, state, screening, copies: found.copies.map(({ copyOf, reason }) => ({ copyOf, reason })) };
  });
}

/**
 * A correction: a new revision in the same lineage, optionally quoting a source span. The old one
 * becomes SUPERSEDED when the lifecycle allows it (historically true, no longer applicable),
 * fenced like any supersede; otherwise it keeps its state. One action, one receipt: the new
 * revision and the supersede it caused are receipted together.
 */
export function reviseEvidence(ctx: ServiceContext, req: ParsedRequestOf<'evidence:revise'>): IngestOutcome {
  const channel = 'evidence:revise';
  return writeTransaction(ctx.db, () => {
    const old = loadVisibleRevision(ctx.db, ctx.actor, req.supersedes, channel);
    const latest = ctx.db.prepare('SELECT MAX(revision) AS n FROM evidence_revision WHERE evidence_id = ?').get(old.evidence_id) as { n: number };
    if (latest.n !== old.revision) {
      throw conflict(`${channel}: ${req.supersedes} is not the latest revision of ${old.evidence_id} (latest is @${latest.n}); revise that one`);
    }
    const context: ValidityContext = { ...toContext(old), ...(req.context ?? {}) };
    assertWritable(ctx, context, channel);
    const sha = sha256Hex(req.content);
    const span = req.span ? checkSpan(ctx, req.span, context, channel) : null;
    const screening = screen(req.content, req.declaredSha256, sha, span?.mismatch ?? null);
    const { state, reason } = initialState(screening);
    const revisionId = `${old.evidence_id}@${old.revision + 1}`;
    insertRevision(ctx, { revisionId, evidenceId: old.evidence_id, revision: old.revision + 1, supersedes: old.revision_id, state, kind: old.kind, content: req.content, sha, mediaType: old.media_type, context });
    const firstReason = `${reason} (revision of ${old.revision_id}: ${req.reason})`;
    insertTransition(ctx, { revisionId, from: null, to: state, reason: firstReason, supportingRef: old.revision_id });
    const spanBody = req.span && span ? attachSpan(ctx, revisionId, req.span, span, channel) : null;
    const found = detectCopies(ctx, { revisionId, evidenceId: old.evidence_id, kind: old.kind, content: req.content, contentSha256: sha, tenant: context.tenant, classification: context.classification });
    const superseded = canTransition(old.state, 'SUPERSEDED')
      ? applyTransition(ctx, old, { revisionId: old.revision_id, to: 'SUPERSEDED', reason: `superseded by ${revisionId}: ${req.reason}`, supportingRef: revisionId }, channel)
      : null;
    appendReceipt(ctx, {
      action: channel,
      targets: [`revision:${revisionId}`, `revision:${old.revision_id}`, ...(req.span ? [`source:${req.span.sourceId}`] : [])],
      body: {
        revisionId, supersedes: old.revision_id, state, reason: req.reason, screening: screening.matches.map((m) => m.patternId),
        evidenceId: old.evidence_id, kind: old.kind, mediaType: old.media_type, context, firstReason,
        ...(spanBody ? { span: spanBody } : {}),
        ...(superseded
          ? { superseded: { revisionId: old.revision_id, from: superseded.from, to: superseded.to, stateVersion: superseded.stateVersion, ...(superseded.fence ? { effects: { fence: superseded.fence } } : {}) } }
          : {}),
        copies: found.copies,
      },
      post: { revisionId, state, contentSha256: sha },
      artifacts: { content: sha, copySignature: found.signatureSha256 },
    });
    return { revisionId, state, screening, copies: found.copies.map(({ copyOf, reason }) => ({ copyOf, reason })) };
  });
}
