import type { Classification, EvidenceKind, LifecycleState } from '../../../shared/domain/enums';
import type { RevisionDetail, RevisionSummary, Transition } from '../../../shared/domain/schemas';
import type { UsabilityInput } from '../../../shared/domain/usable';
import type { Actor, ServiceContext } from '../context';
import { notFound } from '../errors';
import type { CaseDb } from './caseFile';
import { aclFilter } from './acl';

export interface RevisionRow {
  revision_id: string;
  evidence_id: string;
  revision: number;
  supersedes: string | null;
  state: LifecycleState;
  state_version: number;
  kind: EvidenceKind;
  content: string;
  content_sha256: string;
  media_type: string;
  source_type: string;
  source_ref: string;
  source_version: string | null;
  observed_at: string | null;
  effective_from: string | null;
  valid_until: string | null;
  producer_type: 'person' | 'agent' | 'tool';
  producer: string;
  tenant: string;
  classification: Classification;
  trust_tier: RevisionDetail['context']['trustTier'];
  confidence: number | null;
  independence_group: string | null;
  validation_method: string | null;
  applies_to: string;
  created_at: string;
  created_by: string;
  title: string;
}

export const SUMMARY_COLUMNS = `r.revision_id, r.evidence_id, r.revision, r.kind, r.state, r.tenant,
  r.classification, r.source_type, r.producer, r.observed_at, r.content_sha256, l.title`;

export const toSummary = (r: Pick<RevisionRow, 'revision_id' | 'evidence_id' | 'revision' | 'title' | 'kind' | 'state' | 'tenant' | 'classification' | 'source_type' | 'producer' | 'observed_at' | 'content_sha256'>): RevisionSummary => ({
  revisionId: r.revision_id,
  evidenceId: r.evidence_id,
  revision: r.revision,
  title: r.title,
  kind: r.kind,
  state: r.state,
  tenant: r.tenant,
  classification: r.classification,
  sourceType: r.source_type,
  producer: r.producer,
  observedAt: r.observed_at,
  contentSha256: r.content_sha256,
});

export const toContext = (r: RevisionRow): RevisionDetail['context'] => ({
  sourceType: r.source_type,
  sourceRef: r.source_ref,
  sourceVersion: r.source_version,
  observedAt: r.observed_at,
  effectiveFrom: r.effective_from,
  validUntil: r.valid_until,
  producerType: r.producer_type,
  producer: r.producer,
  tenant: r.tenant,
  classification: r.classification,
  trustTier: r.trust_tier,
  confidence: r.confidence,
  independenceGroup: r.independence_group,
  validationMethod: r.validation_method,
  appliesTo: JSON.parse(r.applies_to) as string[],
});

/**
 * Loads one revision the actor may see. A revision outside the clearance answers exactly like a
 * missing one, so an error message never confirms that hidden evidence exists.
 */
export function loadVisibleRevision(db: CaseDb, actor: Actor, revisionId: string, channel: string): RevisionRow {
  const acl = aclFilter(actor, 'r');
  const row = db
    .prepare(
      `SELECT r.*, l.title FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id)
       WHERE r.revision_id = ? AND ${acl.sql}`,
    )
    .get(revisionId, ...acl.params) as RevisionRow | undefined;
  if (!row) throw notFound(`${channel}: no evidence revision ${revisionId} is visible to you`);
  return row;
}

export function transitionsOf(db: CaseDb, revisionId: string): Transition[] {
  return (
    db
      .prepare(
        `SELECT from_state, to_state, reason, actor, at, supporting_ref FROM evidence_transition
         WHERE revision_id = ? ORDER BY transition_id`,
      )
      .all(revisionId) as {
      from_state: LifecycleState | null;
      to_state: LifecycleState;
      reason: string;
      actor: string;
      at: string;
      supporting_ref: string | null;
    }[]
  ).map((t) => ({
    from: t.from_state,
    to: t.to_state,
    reason: t.reason,
    actor: t.actor,
    at: t.at,
    supportingRef: t.supporting_ref,
  }));
}

export function toDetail(db: CaseDb, r: RevisionRow): RevisionDetail {
  return {
    ...toSummary(r),
    content: r.content,
    mediaType: r.media_type,
    supersedes: r.supersedes,
    stateVersion: r.state_version,
    context: toContext(r),
    createdAt: r.created_at,
    createdBy: r.created_by,
    transitions: transitionsOf(db, r.revision_id),
  };
}

/** The revision columns usability() judges. */
export type UsabilityColumns = Pick<RevisionRow, 'state' | 'tenant' | 'classification' | 'effective_from' | 'valid_until' | 'applies_to'>;

/** A row as usability() input: the one place the column-to-conjunct mapping is written. */
export const usabilityInput = (r: UsabilityColumns, fenced = false): UsabilityInput => ({
  state: r.state,
  tenant: r.tenant,
  classification: r.classification,
  effectiveFrom: r.effective_from,
  validUntil: r.valid_until,
  appliesTo: JSON.parse(r.applies_to) as string[],
  ...(fenced ? { fenced } : {}),
});

/** Appends one lifecycle transition row (from = null for a revision's first state). */
export function insertTransition(
  ctx: ServiceContext,
  t: { revisionId: string; from: LifecycleState | null; to: LifecycleState; reason: string; supportingRef: string | null },
): void {
  ctx.db
    .prepare(
      `INSERT INTO evidence_transition (revision_id, from_state, to_state, reason, actor, at, supporting_ref)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(t.revisionId, t.from, t.to, t.reason, ctx.actor.actorId, ctx.now(), t.supportingRef);
}
