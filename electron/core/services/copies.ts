import { bandBuckets, copySignature, decodeSignature, encodeSignature, judgeCopyBetween, MACHINE_RECORD_KINDS } from '../../../shared/domain/copies';
import type { Classification } from '../../../shared/domain/enums';
import type { CopyLinkView } from '../../../shared/ipc/channels/evidence';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, notFound } from '../errors';
import { visibleClassifications } from '../store/acl';
import { copyCandidates, copyLink, identicalContent, insertCopyLink, insertSignature, linksOf, type CopyLinkRow } from '../store/copyRows';
import { loadVisibleRevision } from '../store/evidenceRows';
import { assertRole, visibleRefs } from './claimBasis';
import { writeTransaction } from '../store/caseFile';

/**
 * Probable copies (DESIGN §3.11, seed 000 §38.2: copies counted as independent evidence disprove
 * the design). Every new revision gets a MinHash signature; its LSH buckets find earlier revisions
 * of other lineages in the same tenant, at or below its classification, and those judged copies
 * (near-same wording between reports, identical content where a machine record is involved) are
 * linked to it. Linked revisions count as one source until a reviewer confirms,
 * with a receipt, that they are independent.
 */
export interface CopyFinding {
  copyOf: string;
  jaccard: number;
  containment: number;
  reason: string;
}

/**
 * Signs a new revision and links it to the probable copies among earlier ones, inside the
 * ingest's transaction. What it found goes into the ingest's one receipt.
 */
export function detectCopies(
  ctx: ServiceContext,
  r: { revisionId: string; evidenceId: string; kind: string; content: string; contentSha256: string; tenant: string; classification: Classification },
): { copies: CopyFinding[]; signatureSha256: string } {
  const sig = copySignature(r.content);
  const encoded = encodeSignature(sig);
  // Wording matters only between reports: a machine record is a copy of identical content alone,
  // so it is looked up by its hash and kept out of the LSH buckets (where its template wording
  // would crowd out the reports). Identical content is looked up for every kind.
  const byWording = !MACHINE_RECORD_KINDS.has(r.kind);
  const buckets = byWording ? bandBuckets(sig) : [];
  const scope = { evidenceId: r.evidenceId, tenant: r.tenant, classifications: visibleClassifications(r.classification) };
  const candidates = new Map(identicalContent(ctx.db, { contentSha256: r.contentSha256, ...scope }).map((c) => [c.revision_id, c]));
  if (byWording) for (const c of copyCandidates(ctx.db, { buckets, ...scope })) candidates.set(c.revision_id, c);
  const copies: CopyFinding[] = [];
  for (const candidate of candidates.values()) {
    const verdict = judgeCopyBetween(
      { kind: r.kind, contentSha256: r.contentSha256, signature: sig },
      { kind: candidate.kind, contentSha256: candidate.content_sha256, signature: decodeSignature(candidate.signature) },
    );
    if (!verdict.probableCopy) continue;
    insertCopyLink(ctx.db, { revision_id: r.revisionId, copy_of: candidate.revision_id, jaccard: verdict.jaccard, containment: verdict.containment, reason: verdict.reason, detected_at: ctx.now() });
    copies.push({ copyOf: candidate.revision_id, jaccard: verdict.jaccard, containment: verdict.containment, reason: verdict.reason });
  }
  insertSignature(ctx.db, r.revisionId, encoded, buckets);
  copies.sort((a, b) => (a.copyOf < b.copyOf ? -1 : a.copyOf > b.copyOf ? 1 : 0));
  return { copies, signatureSha256: sha256Hex(encoded) };
}

const toView = (l: CopyLinkRow): CopyLinkView => ({
  revisionId: l.revision_id,
  copyOf: l.copy_of,
  jaccard: l.jaccard,
  containment: l.containment,
  reason: l.reason,
  detectedAt: l.detected_at,
  independent: l.independent_reason === null ? null : { reason: l.independent_reason, by: l.confirmed_by!, at: l.confirmed_at! },
});

/** Copy links of a revision whose other end the actor may see (the rest are not mentioned at all). */
export function copiesOf(ctx: ServiceContext, revisionId: string): CopyLinkView[] {
  const links = linksOf(ctx.db, revisionId);
  const other = (l: CopyLinkRow) => (l.revision_id === revisionId ? l.copy_of : l.revision_id);
  const visible = visibleRefs(ctx.db, ctx.actor, links.map(other));
  return links.filter((l) => visible.has(other(l))).map(toView);
}

/**
 * evidence:confirmIndependent: a reviewer records that two revisions flagged as probable copies
 * are independent sources after all (say, two vendors' reports written from the same template).
 * From then on they count separately. One receipt; the link itself stays, with who and why.
 */
export function confirmIndependent(ctx: ServiceContext, req: ParsedRequestOf<'evidence:confirmIndependent'>): CopyLinkView {
  const channel = 'evidence:confirmIndependent';
  assertRole(ctx, ['reviewer', 'admin'], channel, 'confirming that two items are independent sources');
  return writeTransaction(ctx.db, () => {
    loadVisibleRevision(ctx.db, ctx.actor, req.revisionId, channel);
    loadVisibleRevision(ctx.db, ctx.actor, req.copyOf, channel);
    const link = copyLink(ctx.db, req.revisionId, req.copyOf);
    if (!link) throw notFound(`${channel}: ${req.revisionId} was not flagged as a probable copy of ${req.copyOf}; only flagged pairs can be confirmed independent`);
    if (link.independent_reason !== null) {
      throw conflict(`${channel}: ${req.revisionId} and ${req.copyOf} were already confirmed independent by ${link.confirmed_by} (${link.independent_reason})`);
    }
    const at = ctx.now();
    const changed = ctx.db
      .prepare('UPDATE evidence_copy SET independent_reason = ?, confirmed_by = ?, confirmed_at = ? WHERE revision_id = ? AND copy_of = ? AND independent_reason IS NULL')
      .run(req.reason, ctx.actor.actorId, at, req.revisionId, req.copyOf).changes;
    if (changed !== 1) throw conflict(`${channel}: the link between ${req.revisionId} and ${req.copyOf} changed while you were deciding; reload it`);
    appendReceipt(ctx, {
      action: channel,
      targets: [`revision:${req.revisionId}`, `revision:${req.copyOf}`],
      body: { revisionId: req.revisionId, copyOf: req.copyOf, reason: req.reason, flaggedBecause: link.reason },
      post: { revisionId: req.revisionId, copyOf: req.copyOf, independentReason: req.reason, confirmedBy: ctx.actor.actorId, confirmedAt: at },
    });
    return toView(copyLink(ctx.db, req.revisionId, req.copyOf)!);
  });
}
