import { z } from 'zod';
import { BindingRole, Classification, EvidenceKind, LifecycleState, Relation } from '../domain/enums';
import { ClaimPolicySchema } from '../domain/claimStatus';
import { ValidityContext } from '../domain/schemas';
import { Content, Sha256 } from '../ipc/channels/evidence';
import { ProvEdgeInput, ProvNodeInput } from '../ipc/channels/provenance';

/**
 * The evidence bundle (issue 10.2): the workbench's own interchange format, one JSON record per
 * line (NDJSON) after a header line, or the same records as `{ ...header, records: [...] }`. It
 * carries evidence with its whole validity context, sources, claims with policy, bindings, PROV
 * and the agent submission of seed 000 §34, so agents and colleagues share evidence, not opinions.
 * resources/evidence-bundle.schema.json is generated from these schemas (npm run bundle:schema).
 */
export const BUNDLE_FORMAT = 'erwb-evidence-bundle';
export const BUNDLE_VERSION = 1;
/**
 * Import files above this are refused before a byte is parsed (`bundle:import` may lower it); a
 * browser checks a file against it before uploading one, the loopback host again when it arrives.
 */
export const DEFAULT_MAX_BUNDLE_BYTES = 1024 ** 3;

/**
 * A name in a bundle: what the producer chose, or an id a case gave (which may end in
 * `~<tenant>.<classification>`, the scope it lives in; it must then match the record's scope).
 * Source and claim names follow the case's own grammar for them (ChosenName, '@' allowed);
 * evidence names cannot hold '@', which separates the revision number.
 */
const SCOPE_SUFFIX = '(~[A-Za-z0-9][A-Za-z0-9_-]{0,31}\\.[a-z]{1,16})?';
const scopedName = (chars: string, what: string) =>
  z
    .string()
    .min(1)
    .max(180)
    .regex(new RegExp(`^[A-Za-z0-9][${chars}]*${SCOPE_SUFFIX}$`), `letters, digits and ${what}, optionally ~<tenant>.<classification>`);
const Name = scopedName('A-Za-z0-9._:@-', ". _ : @ -");
const EvidenceName = scopedName('A-Za-z0-9._:-', ". _ : - (no '@')");
/** `<evidence name>@<revision>`: a revision in this bundle or already in the case. */
const RevisionRef = z.string().max(191).regex(/^[^@\s]{1,180}@[1-9][0-9]{0,8}$/, 'expected <evidence name>@<revision>');
const Tenant = z.string().min(1).max(512);

export const BundleHeader = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION, { error: `this workbench reads bundle version ${BUNDLE_VERSION}` }),
    /** Who or what wrote the bundle: a tool, an agent, a colleague's workbench. */
    producer: z.string().min(1).max(512).optional(),
    createdAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type BundleHeader = z.infer<typeof BundleHeader>;

export const SourceRecord = z
  .object({
    type: z.literal('source'),
    sourceId: Name,
    title: z.string().trim().min(1).max(500),
    content: z.string().min(1).max(5_000_000),
    mediaType: z.string().min(1).max(200).default('text/plain'),
    tenant: Tenant,
    classification: Classification,
  })
  .strict();

export const EvidenceRecord = z
  .object({
    type: z.literal('evidence'),
    evidenceId: EvidenceName,
    /** 1 for the first revision; a later one corrects the one before it (which must come first). */
    revision: z.number().int().min(1).max(999_999_999),
    title: z.string().min(1).max(500),
    kind: EvidenceKind,
    content: Content,
    mediaType: z.string().min(1).max(200).default('text/plain'),
    /** The hash the producer declared; a mismatch quarantines the revision, as on ingest. */
    contentSha256: Sha256.optional(),
    context: ValidityContext,
    /** The state the producer reports. Applied only where the lifecycle and your role allow it. */
    lifecycle: LifecycleState.optional(),
    /** Why this revision corrects the previous one (revisions after the first). */
    reason: z.string().trim().min(1).max(4000).optional(),
    span: z
      .object({ sourceId: Name, start: z.number().int().min(0), end: z.number().int().min(1), quote: z.string().min(1).max(100_000) })
      .strict()
      .optional(),
  })
  .strict();

export const ClaimRecord = z
  .object({
    type: z.literal('claim'),
    claimId: Name,
    statement: z.string().trim().min(1).max(2000),
    scope: z.array(z.string().min(1).max(512)).max(100).default([]),
    policy: ClaimPolicySchema.default({ minIndependentSources: 1, requiredKinds: [], quorumSize: null }),
    tenant: Tenant,
    classification: Classification,
  })
  .strict();

export const BindingRecord = z
  .object({
    type: z.literal('binding'),
    claimId: Name,
    revision: RevisionRef,
    relation: Relation,
    role: BindingRole,
    rationale: z.string().max(4000).default(''),
  })
  .strict();

/** PROV nodes and edges; edges name stored items as `rev:<evidence name>@<n>` and `src:<source name>`. */
export const ProvRecord = z
  .object({
    type: z.literal('prov'),
    tenant: Tenant,
    classification: Classification,
    nodes: z.array(ProvNodeInput).max(500).default([]),
    edges: z.array(ProvEdgeInput).max(2000).default([]),
  })
  .strict();

/**
 * Seed 000 §34: an agent does not say "I am sure this is an attack"; it submits the claim, the
 * evidence, their relation, the evidence's provenance, lifecycle, confidence and independence
 * group, so that others can check it. Provenance, confidence and group describe the evidence: they
 * must agree with what its revision records, or the record is refused (evidence is shared, not
 * restated). The relation becomes a binding; the lifecycle is applied like an evidence record's.
 */
export const SubmissionRecord = z
  .object({
    type: z.literal('submission'),
    claim: Name,
    evidence: RevisionRef,
    relation: Relation,
    role: BindingRole.default('SUPPORTING'),
    provenance: z.string().min(1).max(512),
    lifecycle: LifecycleState,
    confidence: z.number().min(0).max(1).nullable(),
    independenceGroup: z.string().min(1).max(512).nullable(),
    rationale: z.string().max(4000).default(''),
  })
  .strict();

export const BundleRecord = z.discriminatedUnion('type', [SourceRecord, EvidenceRecord, ClaimRecord, BindingRecord, ProvRecord, SubmissionRecord]);
export type BundleRecord = z.infer<typeof BundleRecord>;
export const RECORD_TYPES = ['source', 'evidence', 'claim', 'binding', 'prov', 'submission'] as const;

/** The single-document form: the header's fields plus every record in order. */
export const BundleDocument = BundleHeader.extend({ records: z.array(BundleRecord).max(10_000_000) }).strict();
