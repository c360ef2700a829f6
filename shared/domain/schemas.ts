import { z } from 'zod';
import {
  BindingRole,
  Classification,
  ClaimStatus,
  EvidenceKind,
  LifecycleState,
  Relation,
  Role,
  SupportProjection,
  TrustTier,
} from './enums';

/**
 * ids are short, printable and free of path or markup characters: they appear in receipts. A '~'
 * appears only in ids the case qualified with the scope they were created in (see ChosenName).
 */
export const Id = z
  .string()
  .min(1)
  .max(180)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@~-]*$/, 'use letters, digits and . _ : @ - only');

/**
 * A name a user chooses for a new claim: an Id without '~', which the case reserves for the scope
 * qualifier it appends to names chosen outside its home scope (issue 9.7: a name taken in a
 * tenant or classification you cannot see must not answer differently from a free one).
 */
export const ChosenName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/, "use letters, digits and . _ : @ - only ('~' is reserved)");
export const IsoTime = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 time with its zone, e.g. 2026-11-20T03:12:44Z' });

/**
 * One grammar for evidence ids, used on the way in and everywhere after (issue 12.4): an evidence
 * id never contains '@', which separates it from the revision number in a revision id, so an id
 * accepted by evidence:ingest is always usable in `<evidence_id>@<revision>` on every channel.
 * A chosen id never contains '~' either; the case may append `~<scope>` to it (ChosenName).
 */
const EVIDENCE_NAME = '[A-Za-z0-9][A-Za-z0-9._:-]*';
const SCOPE_QUALIFIER = '(?:~[A-Za-z0-9][A-Za-z0-9_-]{0,31}\\.[a-z]{1,16})?';
export const EvidenceId = z
  .string()
  .min(1)
  .max(120)
  .regex(new RegExp(`^${EVIDENCE_NAME}$`), "use letters, digits and . _ : - only (no '@': it separates the revision number; '~' is reserved)");
export const RevisionId = z
  .string()
  .max(180)
  .regex(new RegExp(`^(?=[^@~]{1,120}[@~])${EVIDENCE_NAME}${SCOPE_QUALIFIER}@[1-9][0-9]{0,8}$`), 'expected <evidence_id>@<revision>');

/** Free text of a field that names or labels something (a tenant, a source, a producer). */
export const Label = z.string().min(1).max(512);

export const ActorView = z.object({
  actorId: Id,
  displayName: z.string(),
  role: Role,
  tenants: z.array(z.string()),
  maxClassification: Classification,
});
export type ActorView = z.infer<typeof ActorView>;

/**
 * The tenants and classification ceiling a case mostly works in, declared at case:create. Names
 * chosen for items inside it, by reviewers cleared for all of it, are kept as chosen; others are
 * qualified with their scope (electron/core/services/scopedNames.ts).
 */
export const HomeScope = z
  .object({
    tenants: z.array(z.string().min(1).max(128)).min(1).max(100),
    maxClassification: Classification,
  })
  .strict();
export type HomeScope = z.infer<typeof HomeScope>;
export const WHOLE_CASE_SCOPE: HomeScope = { tenants: ['*'], maxClassification: 'restricted' };

export const ValidityContext = z.object({
  sourceType: Label,
  sourceRef: z.string().min(1).max(2048),
  sourceVersion: Label.nullable(),
  observedAt: IsoTime.nullable(),
  effectiveFrom: IsoTime.nullable(),
  validUntil: IsoTime.nullable(),
  producerType: z.enum(['person', 'agent', 'tool']),
  producer: Label,
  tenant: Label,
  classification: Classification,
  trustTier: TrustTier,
  confidence: z.number().min(0).max(1).nullable(),
  independenceGroup: Label.nullable(),
  validationMethod: Label.nullable(),
  appliesTo: z.array(Label).max(200),
});
export type ValidityContext = z.infer<typeof ValidityContext>;

export const RevisionSummary = z.object({
  revisionId: z.string(),
  evidenceId: z.string(),
  revision: z.number().int(),
  title: z.string(),
  kind: EvidenceKind,
  state: LifecycleState,
  tenant: z.string(),
  classification: Classification,
  sourceType: z.string(),
  producer: z.string(),
  observedAt: IsoTime.nullable(),
  contentSha256: z.string(),
});
export type RevisionSummary = z.infer<typeof RevisionSummary>;

export const Transition = z.object({
  from: LifecycleState.nullable(),
  to: LifecycleState,
  reason: z.string(),
  actor: z.string(),
  at: z.string(),
  supportingRef: z.string().nullable(),
});
export type Transition = z.infer<typeof Transition>;

export const RevisionDetail = RevisionSummary.extend({
  content: z.string(),
  mediaType: z.string(),
  supersedes: z.string().nullable(),
  stateVersion: z.number().int(),
  context: ValidityContext,
  createdAt: z.string(),
  createdBy: z.string(),
  transitions: z.array(Transition),
});
export type RevisionDetail = z.infer<typeof RevisionDetail>;

export const BindingView = z.object({
  bindingId: z.number().int(),
  claimId: z.string(),
  generation: z.number().int(),
  revisionId: z.string(),
  relation: Relation,
  role: BindingRole,
  rationale: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type BindingView = z.infer<typeof BindingView>;

const Corroboration = z.object({ all: z.number().int(), independent: z.number().int() });

export const ClaimSummary = z.object({
  claimId: z.string(),
  statement: z.string(),
  generation: z.number().int(),
  status: ClaimStatus,
  author: z.string(),
  /** Usable FULL_SUPPORT: independent sources (|I_c|) and all bindings (|E_c|). Only this counts toward the policy. */
  support: Corroboration,
  /** Usable PARTIAL_SUPPORT, counted the same way and shown apart: it never makes a claim SUPPORTED. */
  partialSupport: Corroboration,
  refute: Corroboration,
  /** Support projection (DESIGN §3.5): PENDING_REVALIDATION from the commit of a fence on its evidence until the worker recomputed it. */
  projection: SupportProjection.optional(),
  pendingRevalidation: z.boolean().optional(),
  projectionReasons: z.array(z.string()).optional(),
  /** Compare-and-swap version of the stored projection; remediation actions send it back. */
  projectionVersion: z.number().int().optional(),
  /** Required kinds the claim's usable evidence does not cover. */
  missingKinds: z.array(z.string()),
  /** Bindings of the current generation whose evidence the reader may see: the graph and queues draw from these, no claim:get per claim. */
  bindings: z.array(BindingView),
});
export type ClaimSummary = z.infer<typeof ClaimSummary>;
