import { z } from 'zod';
import { BindingRole, EvidenceKind, LifecycleState, Relation } from '../../domain/enums';
import { EvidenceId, Id, RevisionDetail, RevisionId, RevisionSummary, Transition, ValidityContext } from '../../domain/schemas';
import { USABILITY_CONJUNCTS } from '../../domain/usable';
import { VALIDATION_CHECKS } from '../../domain/validationChecklist';

const ScreeningFinding = z.object({ patternId: z.string(), reason: z.string(), excerpt: z.string() });
/** Ingest screening: matches quarantined the revision; notices (e.g. a stray zero-width space) are shown and did not. */
export const ScreeningResult = z.object({
  flagged: z.boolean(),
  matches: z.array(ScreeningFinding),
  notices: z.array(ScreeningFinding),
});

export const Content = z.string().max(1_000_000, 'evidence content is limited to 1,000,000 characters');
export const Sha256 = z.string().length(64, 'expected a lowercase hex SHA-256').regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');
const Reason = z.string().trim().min(1, 'a reason is required').max(4000);

/** Orders of the evidence queue; each walks an index (no sort in SQL). */
export const EvidenceSort = z.enum(['revision', 'observed-desc', 'observed-asc', 'state']);
export type EvidenceSort = z.infer<typeof EvidenceSort>;
export const EvidenceCounts = z.object({ total: z.number().int(), byState: z.record(LifecycleState, z.number().int()) });
export type EvidenceCounts = z.infer<typeof EvidenceCounts>;
/** A row of a queue: the revision, and the move that put it in its current state (why it is quarantined, disputed…). */
export const QueueRevision = RevisionSummary.extend({ entered: Transition.nullable() });
export type QueueRevision = z.infer<typeof QueueRevision>;

export const ValidationCheck = z.object({ id: z.enum(VALIDATION_CHECKS), passed: z.boolean(), detail: z.string() });
export type ValidationCheck = z.infer<typeof ValidationCheck>;

/** A stored checklist run: the one that moved the revision to VALIDATED, override included. */
export const ValidationRunView = z.object({
  runId: z.number().int(),
  revisionId: z.string(),
  fromState: LifecycleState,
  actor: z.string(),
  at: z.string(),
  passed: z.boolean(),
  overrideReason: z.string().nullable(),
  checks: z.array(ValidationCheck),
});
export type ValidationRunView = z.infer<typeof ValidationRunView>;

export const UsabilityView = z.object({
  usable: z.boolean(),
  reasons: z.array(z.object({ conjunct: z.enum(USABILITY_CONJUNCTS), message: z.string() })),
});

/** The span of a stored source document a revision quotes (DESIGN §3.1, seed 004). */
export const SpanInput = z
  .object({
    sourceId: Id,
    /** UTF-16 code unit offsets, as String.prototype.slice takes them; end is exclusive. */
    start: z.number().int().min(0),
    end: z.number().int().min(1),
    quote: z.string().min(1).max(100_000),
  })
  .strict()
  .refine((s) => s.end > s.start, { message: 'end must be greater than start', path: ['end'] });
export const SpanView = z.object({
  sourceId: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  quote: z.string(),
  quoteSha256: z.string(),
});
export type SpanView = z.infer<typeof SpanView>;

/**
 * A probable-copy link (DESIGN §3.11): revisionId was found, on its ingest, to be a near-same copy
 * of the earlier copyOf. They count as one source until a reviewer confirms them independent.
 */
export const CopyLinkView = z.object({
  revisionId: z.string(),
  copyOf: z.string(),
  jaccard: z.number(),
  containment: z.number(),
  /** Why they were merged, in words (estimated shared word pairs). */
  reason: z.string(),
  detectedAt: z.string(),
  independent: z.object({ reason: z.string(), by: z.string(), at: z.string() }).nullable(),
});
export type CopyLinkView = z.infer<typeof CopyLinkView>;

/** evidence:get: the revision plus why it is (not) usable, its last validation, its quoted span and its probable copies. */
export const EvidenceDetail = RevisionDetail.extend({
  /** usability() against the acting reviewer with an empty scope: failing conjuncts are the reasons. */
  usability: UsabilityView,
  validation: ValidationRunView.nullable(),
  span: SpanView.nullable(),
  /** Copy links in either direction whose other end you may see. */
  copies: z.array(CopyLinkView),
  /** The claims (you may see) whose current bindings hold this revision, at most 200. */
  boundTo: z.array(z.object({ claimId: z.string(), statement: z.string(), relation: Relation, role: BindingRole })),
  /** The revisions of its evidence lineage that you may see, this one among them, newest first (at most 200). */
  lineage: z.array(RevisionSummary.pick({ revisionId: true, revision: true, state: true, observedAt: true })),
});
export type EvidenceDetail = z.infer<typeof EvidenceDetail>;

export const evidenceChannels = {
  'evidence:list': {
    request: z
      .object({
        state: LifecycleState.optional(),
        kind: EvidenceKind.optional(),
        /** Case-insensitive match on revision id, title, source type and producer. */
        text: z.string().max(200).optional(),
        sort: EvidenceSort.default('revision'),
        limit: z.number().int().min(1).max(200).default(50),
        /** The nextCursor of the page before, asked with the same filters and sort. */
        after: z.string().max(1000).optional(),
        /** Also count the matches, in all and per state (the state filter aside), for a queue's chips. */
        counts: z.boolean().default(false),
      })
      .strict(),
    response: z.object({ items: z.array(QueueRevision), nextCursor: z.string().nullable(), counts: EvidenceCounts.optional() }),
  },
  'evidence:get': {
    request: z.object({ revisionId: RevisionId }).strict(),
    response: EvidenceDetail,
  },
  'evidence:ingest': {
    request: z
      .object({
        evidenceId: EvidenceId.optional(),
        title: z.string().min(1).max(500),
        kind: EvidenceKind,
        content: Content,
        mediaType: z.string().min(1).max(200).default('text/plain'),
        /** The hash the producer declared; a mismatch with the content quarantines the revision. */
        declaredSha256: Sha256.optional(),
        context: ValidityContext,
        /** A quoted span of a stored source document; a quote that does not match quarantines. */
        span: SpanInput.optional(),
      })
      .strict(),
    response: z.object({
      revisionId: z.string(),
      state: LifecycleState,
      screening: ScreeningResult,
      /** Earlier revisions this one is a probable copy of: counted as one source with them. */
      copies: z.array(z.object({ copyOf: z.string(), reason: z.string() })),
    }),
  },
  'evidence:transition': {
    request: z
      .object({
        revisionId: RevisionId,
        to: LifecycleState,
        reason: Reason,
        supportingRef: z.string().min(1).max(500).optional(),
        /** Reviewer override of failed validation checks (to VALIDATED only); recorded and receipted. */
        overrideReason: Reason.optional(),
      })
      .strict(),
    response: z.object({
      revisionId: z.string(),
      from: LifecycleState,
      to: LifecycleState,
      /** The stored checklist run, on moves to VALIDATED. */
      validation: ValidationRunView.optional(),
    }),
  },
  /**
   * Validates several revisions at once, each exactly as evidence:transition would (its checklist,
   * its own receipt), in one transaction: the first one refused (moved since it was listed, or a
   * failed check, which only a one-by-one override may pass) refuses them all and names it.
   */
  'evidence:validateMany': {
    request: z
      .object({
        items: z.array(z.object({ revisionId: RevisionId, from: LifecycleState }).strict()).min(1).max(200),
        reason: Reason,
      })
      .strict(),
    response: z.object({ validated: z.array(z.object({ revisionId: z.string(), from: LifecycleState })) }),
  },
  'evidence:validate': {
    request: z.object({ revisionId: RevisionId }).strict(),
    response: z.object({
      revisionId: z.string(),
      state: LifecycleState,
      /** Whether the lifecycle allows a move to VALIDATED from the current state at all. */
      canValidate: z.boolean(),
      passed: z.boolean(),
      checks: z.array(ValidationCheck),
    }),
  },
  'evidence:verifySpan': {
    request: z.object({ revisionId: RevisionId }).strict(),
    response: z.object({
      ok: z.boolean(),
      revisionId: z.string(),
      sourceId: z.string(),
      reason: z.string().nullable(),
      /** True when this call moved the revision to QUARANTINED. */
      quarantined: z.boolean(),
      state: LifecycleState,
    }),
  },
  'evidence:revise': {
    request: z
      .object({
        supersedes: RevisionId,
        content: Content,
        reason: Reason,
        declaredSha256: Sha256.optional(),
        context: ValidityContext.partial().optional(),
        /** The corrected revision's quoted span of a stored source document; a mismatch quarantines it. */
        span: SpanInput.optional(),
      })
      .strict(),
    response: z.object({
      revisionId: z.string(),
      state: LifecycleState,
      screening: ScreeningResult,
      copies: z.array(z.object({ copyOf: z.string(), reason: z.string() })),
    }),
  },
  'evidence:confirmIndependent': {
    request: z.object({ revisionId: RevisionId, copyOf: RevisionId, reason: Reason }).strict(),
    response: CopyLinkView,
  },
} as const;
