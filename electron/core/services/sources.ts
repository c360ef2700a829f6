import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import type { SpanView } from '../../../shared/ipc/channels/evidence';
import type { SourceDocument, SourceSummary } from '../../../shared/ipc/channels/sources';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { aclFilter, canSee } from '../store/acl';
import { writeTransaction } from '../store/caseFile';
import { readCaseMeta } from './caseMeta';
import { scopedName } from './scopedNames';

/** Source documents (stored once per compartment by hash) and the spans evidence quotes from them. */

export interface SourceRow {
  source_id: string;
  title: string;
  content: string;
  content_sha256: string;
  media_type: string;
  tenant: string;
  classification: Classification;
  created_by: string;
  created_at: string;
}

interface SpanRow {
  revision_id: string;
  source_id: string;
  span_start: number;
  span_end: number;
  quote: string;
  quote_sha256: string;
}

const toSummary = (r: SourceRow): SourceSummary => ({
  sourceId: r.source_id,
  title: r.title,
  mediaType: r.media_type,
  contentSha256: r.content_sha256,
  length: r.content.length,
  tenant: r.tenant,
  classification: r.classification,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** A hidden source document answers exactly like a missing one. */
export function loadVisibleSource(ctx: ServiceContext, sourceId: string, channel: string): SourceRow {
  const acl = aclFilter(ctx.actor, 's');
  const row = ctx.db.prepare(`SELECT s.* FROM source_document s WHERE s.source_id = ? AND ${acl.sql}`).get(sourceId, ...acl.params) as
    | SourceRow
    | undefined;
  if (!row) throw notFound(`${channel}: no source document ${sourceId} is visible to you`);
  return row;
}

/**
 * The default id is derived from the hash and the compartment, so adding the same text twice is
 * idempotent and the demo seed can name a document without asking for its id first.
 */
const defaultSourceId = (sha: string, tenant: string, classification: string): string =>
  `src-${sha256Hex(`${tenant}\u0000${classification}\u0000${sha}`).slice(0, 16)}`;

export function addSource(ctx: ServiceContext, req: ParsedRequestOf<'source:add'>): { sourceId: string; contentSha256: string; created: boolean } {
  if (!canSee(ctx.actor, req)) {
    throw forbidden(`source:add: your clearance does not cover tenant ${req.tenant} at ${req.classification}; ask an admin or choose another tenant`);
  }
  const sha = sha256Hex(req.content);
  return writeTransaction(ctx.db, () => {
    const existing = ctx.db
      .prepare('SELECT source_id FROM source_document WHERE content_sha256 = ? AND tenant = ? AND classification = ?')
      .get(sha, req.tenant, req.classification) as { source_id: string } | undefined;
    // Same bytes in the same compartment: nothing to write, so no receipt either.
    if (existing) return { sourceId: existing.source_id, contentSha256: sha, created: false };
    // Chosen or derived, a name may come back qualified with its scope (issue 9.7: no existence oracle).
    const sourceId = scopedName(req.sourceId ?? defaultSourceId(sha, req.tenant, req.classification), req, ctx.actor, readCaseMeta(ctx.db).homeScope);
    if (ctx.db.prepare('SELECT 1 FROM source_document WHERE source_id = ?').get(sourceId)) {
      throw conflict(`source:add: source id ${sourceId} is already taken by other text; choose another sourceId`);
    }
    ctx.db
      .prepare(
        `INSERT INTO source_document (source_id, title, content, content_sha256, media_type, tenant, classification, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(sourceId, req.title, req.content, sha, req.mediaType, req.tenant, req.classification, ctx.actor.actorId, ctx.now());
    appendReceipt(ctx, {
      action: 'source:add',
      targets: [`source:${sourceId}`],
      body: { sourceId, title: req.title, mediaType: req.mediaType, tenant: req.tenant, classification: req.classification, contentSha256: sha },
      post: { sourceId, contentSha256: sha },
      artifacts: { content: sha },
    });
    return { sourceId, contentSha256: sha, created: true };
  });
}

export function getSource(ctx: ServiceContext, sourceId: string): SourceDocument {
  const row = loadVisibleSource(ctx, sourceId, 'source:get');
  return { ...toSummary(row), content: row.content };
}

export function listSources(ctx: ServiceContext, req: ParsedRequestOf<'source:list'>): { items: SourceSummary[]; nextCursor: string | null } {
  const acl = aclFilter(ctx.actor, 's');
  const after = req.after === undefined ? '' : ' AND s.source_id > ?';
  const rows = ctx.db
    .prepare(`SELECT s.* FROM source_document s WHERE ${acl.sql}${after} ORDER BY s.source_id LIMIT ?`)
    .all(...acl.params, ...(req.after === undefined ? [] : [req.after]), req.limit + 1) as SourceRow[];
  const page = rows.slice(0, req.limit);
  return { items: page.map(toSummary), nextCursor: rows.length > req.limit ? page[page.length - 1]!.source_id : null };
}

export interface SpanRequest {
  sourceId: string;
  start: number;
  end: number;
  quote: string;
}

/**
 * Checks a span quoted on ingest. The quoted source may not be more sensitive than the evidence:
 * whoever can read the evidence must be able to read (and re-verify) what it quotes. Returns the
 * reason the quote does not match the source, or null when it does.
 */
export function checkSpan(
  ctx: ServiceContext,
  span: SpanRequest,
  evidence: { tenant: string; classification: Classification },
  channel: string,
): { source: SourceRow; mismatch: string | null } {
  const source = loadVisibleSource(ctx, span.sourceId, channel);
  if (source.tenant !== evidence.tenant || CLASSIFICATIONS.indexOf(source.classification) > CLASSIFICATIONS.indexOf(evidence.classification)) {
    throw invalid(
      `${channel}: source ${source.source_id} is ${source.tenant}/${source.classification}, the evidence ${evidence.tenant}/${evidence.classification}; ` +
        'evidence must be in the same tenant and at least as classified as the source it quotes',
      [{ path: ['span', 'sourceId'], message: 'source is outside the evidence compartment' }],
    );
  }
  return { source, mismatch: spanMismatch(source, span.start, span.end, span.quote) };
}

function spanMismatch(source: SourceRow, start: number, end: number, quote: string): string | null {
  if (end > source.content.length) {
    return `span mismatch: [${start}, ${end}) lies outside source ${source.source_id} (${source.content.length} characters)`;
  }
  return source.content.slice(start, end) === quote
    ? null
    : `span mismatch: the quote is not the text of source ${source.source_id} at [${start}, ${end})`;
}

export function insertSpan(ctx: ServiceContext, revisionId: string, span: SpanRequest): string {
  const quoteSha = sha256Hex(span.quote);
  ctx.db
    .prepare('INSERT INTO evidence_span (revision_id, source_id, span_start, span_end, quote, quote_sha256) VALUES (?, ?, ?, ?, ?, ?)')
    .run(revisionId, span.sourceId, span.start, span.end, span.quote, quoteSha);
  return quoteSha;
}

export function spanOf(ctx: ServiceContext, revisionId: string): SpanView | null {
  const row = ctx.db.prepare('SELECT * FROM evidence_span WHERE revision_id = ?').get(revisionId) as SpanRow | undefined;
  if (!row) return null;
  return { sourceId: row.source_id, start: row.span_start, end: row.span_end, quote: row.quote, quoteSha256: row.quote_sha256 };
}

/** What the ingest or revise receipt that stored a revision's span said about the quote then. */
function matchedWhenRecorded(ctx: ServiceContext, revisionId: string): boolean {
  const row = ctx.db
    .prepare(
      `SELECT json_extract(body, '$.span.matches') AS matches FROM audit_receipt
       WHERE action IN ('evidence:ingest', 'evidence:revise') AND json_extract(body, '$.revisionId') = ? ORDER BY seq LIMIT 1`,
    )
    .get(revisionId) as { matches: number | null } | undefined;
  return row?.matches !== 0;
}

/**
 * Re-extracts a stored span from the stored source and re-hashes both: the source text against its
 * recorded hash (was the document edited under us?) and the extracted text against the quote's
 * hash (does the evidence still say what the source says?). Returns the mismatch reason or null.
 */
export function reverifySpan(ctx: ServiceContext, revisionId: string, span: SpanView, channel: string): string | null {
  const source = loadVisibleSource(ctx, span.sourceId, channel);
  if (sha256Hex(source.content) !== source.content_sha256) {
    return `span mismatch: source ${source.source_id} no longer matches its recorded SHA-256; the stored document was altered`;
  }
  if (sha256Hex(span.quote) !== span.quoteSha256) {
    return `span mismatch: the stored quote no longer matches its recorded SHA-256`;
  }
  if (span.end > source.content.length || sha256Hex(source.content.slice(span.start, span.end)) !== span.quoteSha256) {
    // Whether it ever matched is what the receipt that stored the span recorded.
    return matchedWhenRecorded(ctx, revisionId)
      ? `span mismatch: source ${source.source_id} at [${span.start}, ${span.end}) no longer hashes to the quote's SHA-256`
      : `span mismatch: the quote never matched source ${source.source_id} at [${span.start}, ${span.end}); it was quarantined for that when it was recorded`;
  }
  return null;
}
