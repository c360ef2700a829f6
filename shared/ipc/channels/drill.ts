import { z } from 'zod';
import { BindingRole, Classification, LifecycleState, Relation } from '../../domain/enums';
import { Id } from '../../domain/schemas';

/**
 * The seed's §37 metrics (DESIGN §4) and the propagation drill of §35–36 (issue 14.3). Both are
 * computed by the store, within the reader's clearance like every read: an item outside it is
 * neither listed nor counted. Every figure carries the ids behind it (a capped sample and the
 * total) so the dashboard can open them.
 */

/** How many ids a sample carries; `total` says how many there are. */
export const ID_SAMPLE = 50;

/**
 * What each §37 metric counts, precisely; the schema describes each field with it and every answer
 * carries it, so the dashboard shows the definition beside the figure.
 */
export const METRIC_DEFINITIONS = {
  provenanceCompleteness:
    'Visible evidence revisions whose provenance reaches an original source, over all visible revisions. Reaching one means source type, source reference and producer are recorded, and, for derived evidence (agent summaries) or a revision with PROV edges of its own, that the PROV trace you can see ends in at least one original source. A plain observation without PROV edges is its own original source.',
  validationRate:
    'Visible revisions that passed the validation checklist at least once (a stored validation run; a reviewer override counts and is shown apart), over visible revisions that are not QUARANTINED now. Quarantined revisions are out of normal flows and cannot be validated until released; they are counted beside the rate, not in it.',
  conflictDetectionRate:
    'Visible claims with both usable support (full or partial) and usable refutation, counted as the status rule counts evidence, that are in the dispute queue (MIXED) or that a reviewer recorded UNRESOLVED, over visible claims with both. No majority vote decides a conflict, so anything below 1 is a conflict that left the queue unseen.',
  independentCorroborationRate:
    'SUPPORTED visible claims whose full support comes from at least 2 independent sources (|I_c| ≥ 2, after collapsing shared independence groups, common original sources and unconfirmed probable copies), over SUPPORTED visible claims.',
  falseConsensusRate:
    'SUPPORTED visible claims that are SUPPORTED only because copies were counted as independent, over SUPPORTED visible claims. The store finds every merge collapsing could make in each claim’s full support (FULL_SUPPORT bindings sharing a source reference or an independence group, linked as a probable copy, or with PROV edges); a SUPPORTED claim whose shown count did not make them all and could fall below its policy is recounted now by the status rule from its bindings as you see them. Shown SUPPORTED but not SUPPORTED on the recount is false consensus. Must be 0. Beside it: claims kept INSUFFICIENT whose full support would meet the policy if every item counted as its own source.',
  revocationPropagationDelay:
    'Protect first, converge after (DESIGN §3.5): how long dependents of a revision taken out of normal flows could be read as current (fence), and how long until every dependent was recomputed (convergence).',
  revocationFence:
    'For every transition of a visible revision to REVOKED, SUPERSEDED, QUARANTINED or DISPUTED after ingest: the fence committed with it (same revision, cause and time) and the delay from the transition to the fence. The fence is written in the transition’s own transaction, so the delay is 0; a transition without a fence is listed.',
  revocationConvergence:
    'Outbox jobs of visible revocations: created → done, per job; and per revoke, supersede, quarantine or dispute, fence commit → the last job of its fence tree (DERIVED fences included) done. Open jobs are not in the percentiles; the oldest one’s age is shown.',
  staleEvidenceUseRate:
    'Decisions in force (each visible claim’s latest approval, on its current generation and bindings) citing as REQUIRED or SUPPORTING evidence, with a relation that counts, a revision that left VALIDATED, or is derived from one that did, after the decision was proposed, while nothing on the read path says so (no open remediation, projection ELIGIBLE and not pending revalidation), over decisions in force. Must be 0.',
  unauthorizedRetrievalRate:
    'What the store can witness (reads are not logged, so earlier retrievals are not counted): every evidence revision and claim this answer counted, and every id it names, re-checked against your clearance with the domain rule, beside the SQL filter that selected them. Rows or ids outside the clearance (counted, never named), over rows and ids checked. Must be 0; drill:run also probes the read paths as readers of narrower clearance.',
} as const;

export const IdSample = z.object({
  label: z.string().describe('what these ids are, in words (e.g. "claims SUPPORTED by one source only")'),
  kind: z.enum(['revision', 'claim', 'decision', 'fence', 'job']),
  total: z.number().int().describe('how many ids there are in all'),
  ids: z.array(z.string()).describe(`at most ${ID_SAMPLE} of them, sorted`),
});
export type IdSample = z.infer<typeof IdSample>;

export const RateMetric = z.object({
  name: z.string(),
  definition: z.string().describe('what is counted, precisely: numerator, denominator and what is left out'),
  numerator: z.number().int(),
  denominator: z.number().int(),
  rate: z.number().nullable().describe('numerator / denominator; null when the denominator is 0 (nothing to measure)'),
  goal: z.enum(['one', 'zero', 'higher']).describe('one: 1 is the expected value; zero: anything above 0 is a failure of the design; higher: better when higher, no fixed target'),
  meetsGoal: z.boolean().nullable().describe('for goals one and zero: whether the rate meets it (true when there is nothing to measure); null for goal higher'),
  breakdown: z.record(z.string(), z.number()).describe('the counts the rate is made of, and related counts worth showing beside it'),
  ids: z.array(IdSample),
});
export type RateMetric = z.infer<typeof RateMetric>;

export const DelayStats = z.object({
  count: z.number().int(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
});
export type DelayStats = z.infer<typeof DelayStats>;

export const RevocationDelay = z.object({
  name: z.string(),
  definition: z.string(),
  fence: z.object({
    definition: z.string(),
    transitions: z.number().int().describe('moves of visible revisions out of normal flows after ingest (to REVOKED, SUPERSEDED, QUARANTINED or DISPUTED)'),
    fenced: z.number().int().describe('of those, the ones a fence was committed with'),
    delay: DelayStats.describe(METRIC_DEFINITIONS.revocationFence),
    meetsGoal: z.boolean().describe('every transition fenced, with no delay'),
    ids: z.array(IdSample),
  }),
  convergence: z.object({
    definition: z.string(),
    jobs: DelayStats.describe(`per finished outbox job: created → done. ${METRIC_DEFINITIONS.revocationConvergence}`),
    fences: DelayStats.describe('per converged revoke, supersede, quarantine or dispute: fence commit → the last job of its fence tree done'),
    openJobs: z.number().int(),
    oldestOpenJobAgeMs: z.number().nullable(),
    ids: z.array(IdSample),
  }),
});
export type RevocationDelay = z.infer<typeof RevocationDelay>;

export const MetricsReport = z.object({
  computedAt: z.string(),
  reader: z.string().describe('the reviewer whose clearance every figure is computed within'),
  elapsedMs: z.number(),
  provenanceCompleteness: RateMetric.describe(METRIC_DEFINITIONS.provenanceCompleteness),
  validationRate: RateMetric.describe(METRIC_DEFINITIONS.validationRate),
  conflictDetectionRate: RateMetric.describe(METRIC_DEFINITIONS.conflictDetectionRate),
  independentCorroborationRate: RateMetric.describe(METRIC_DEFINITIONS.independentCorroborationRate),
  falseConsensusRate: RateMetric.describe(METRIC_DEFINITIONS.falseConsensusRate),
  revocationPropagationDelay: RevocationDelay.describe(METRIC_DEFINITIONS.revocationPropagationDelay),
  staleEvidenceUseRate: RateMetric.describe(METRIC_DEFINITIONS.staleEvidenceUseRate),
  unauthorizedRetrievalRate: RateMetric.describe(METRIC_DEFINITIONS.unauthorizedRetrievalRate),
});
export type MetricsReport = z.infer<typeof MetricsReport>;

/** One field of a claim or decision that differs between two snapshots of the copy. */
const FieldChange = z.object({ field: z.string(), before: z.string(), after: z.string() });

export const DrillChange = z.object({
  kind: z.enum(['claim', 'decision']),
  id: z.string(),
  /** The claim a decision is about (the claim itself for a claim). */
  claimId: z.string(),
  fields: z.array(FieldChange),
  direction: z
    .enum(['adopted', 'flagged'])
    .describe('adopted: the planted item was taken as evidence (status or usable support/refutation counts moved, or a decision changed status); flagged: only the support projection or the currency of a decision moved, i.e. the store marked the target as resting on something unchecked'),
});
export type DrillChange = z.infer<typeof DrillChange>;

export const PlantedBinding = z.object({
  claimId: z.string(),
  revisionId: z.string(),
  relation: Relation,
  role: BindingRole,
  bound: z.boolean(),
  /** Why the store refused the binding, when it did. */
  refusal: z.string().nullable(),
});

const PlantedItem = z.object({
  revisionId: z.string(),
  state: LifecycleState,
  producer: z.string(),
  sourceRef: z.string(),
  /** Screening findings on ingest (pattern ids); any finding quarantines. */
  screening: z.array(z.string()),
});

/** Effects a stage of the drill had beyond the rows it wrote itself (seed 000 §36); every figure must be 0. */
export const StageEffects = z.object({
  permissionChanges: z.number().int().describe('actor and actor_key rows added, removed or changed (roles, tenants, clearance, keys)'),
  toolCalls: z.number().int().describe('receipted actions other than the drill’s own ingests, bindings and worker pages (approvals, transitions, exports, rekeys…)'),
  outboxJobsCreated: z.number().int().describe('outbox jobs (and so fences) the stage created'),
  lifecycleTransitions: z.number().int().describe('lifecycle transitions other than the planted items’ own first state'),
  tenantBoundaryCrossings: z.number().int().describe('rows the stage added that join two tenants: copy links, bindings, PROV edges, or revisions outside the planted tenant'),
  decisionsChanged: z.number().int(),
  claimsChanged: z.number().int(),
});
export type StageEffects = z.infer<typeof StageEffects>;

export const RetrievalProbe = z.object({
  definition: z.string(),
  readers: z.array(z.object({ label: z.string(), tenants: z.array(z.string()), maxClassification: Classification })),
  reads: z.number().int(),
  refused: z.number().int().describe('reads answered NOT_FOUND (a hidden item answers like a missing one)'),
  itemsReturned: z.number().int(),
  unauthorizedReads: z.number().int().describe('reads whose answer held at least one item outside the reader’s clearance'),
  rate: z.number().nullable(),
});

export const DrillReport = z.object({
  actor: z.string(),
  startedAt: z.string(),
  elapsedMs: z.number(),
  stagesMs: z.record(z.string(), z.number()),
  copy: z.object({
    bytes: z.number().int(),
    /** The temporary copy was deleted when the drill ended. */
    removed: z.boolean(),
  }),
  original: z.object({
    headSeq: z.number().int(),
    headHash: z.string(),
    /** The case's receipt head read again after the drill is the same: nothing at all was written to the case meanwhile (another window may write while a drill runs). */
    unchanged: z.boolean(),
    /** Rows of the case itself that name a planted item (revisions, receipts): must be 0, the drill writes only to its copy. */
    drillRowsInCase: z.number().int(),
  }),
  planted: z.object({
    tenant: z.string(),
    classification: Classification,
    falseItem: PlantedItem,
    copyItem: PlantedItem.extend({
      /** Probable-copy links found on its ingest (it should be one of the false item). */
      copyOf: z.array(z.string()),
      detectedAsCopy: z.boolean(),
      countedIfValidated: z
        .object({ all: z.number().int(), independent: z.number().int() })
        .nullable()
        .describe('how a target the two were attached to would count them if both were validated (|E_c| and |I_c|): A and B agreeing must stay one source; null when no attachment was accepted'),
    }),
    injection: PlantedItem.extend({ quarantined: z.boolean(), text: z.string() }),
    bindings: z.array(PlantedBinding),
  }),
  errorPropagation: z.object({
    definition: z.string(),
    rate: z.number().nullable().describe('ErrorPropagationRate (seed 000 §35): changed / affectable'),
    changed: z.number().int(),
    affectable: z.number().int(),
    adopted: z.number().int(),
    adoptionRate: z.number().nullable().describe('adopted / affectable: targets that took the planted item as evidence; must be 0'),
    targets: z.array(z.string()).describe('claims the hurried analyst attached the planted items to (refused attachments included)'),
    decisions: z.array(z.string()).describe('decisions in force or proposed on those claims'),
    changes: z.array(DrillChange),
    /** Changes to claims or decisions outside the affectable set: must be empty. */
    unexpected: z.array(DrillChange),
  }),
  injectionPropagation: z.object({
    quarantined: z.boolean(),
    effects: StageEffects,
    /** The sum of every effect; the seed's Injection Propagation: must be 0. */
    total: z.number().int(),
  }),
  plantEffects: StageEffects.describe('the same guards over the false item, its copy and their bindings (claims and decisions changed are the error propagation above)'),
  retrievalProbe: RetrievalProbe,
  worker: z.object({ jobs: z.number().int(), openJobsAfter: z.number().int() }),
  falseConsensusRate: RateMetric.describe(METRIC_DEFINITIONS.falseConsensusRate),
  metricsAfter: MetricsReport,
  verdict: z.object({
    passed: z.boolean(),
    /** What failed, in words; empty when the drill passed. */
    failures: z.array(z.string()),
  }),
});
export type DrillReport = z.infer<typeof DrillReport>;

export const drillChannels = {
  /** The §37 metrics of the open case, within your clearance (DESIGN §4). Read-only. */
  'metrics:get': {
    request: z.object({}).strict(),
    response: MetricsReport,
  },
  /**
   * The propagation drill (seed 000 §35–36) on a temporary copy of the open case; the case itself
   * is never written. As you, it plants a false CANDIDATE item, a forwarded copy of it and an
   * injection item, attaches the first two where a hurried analyst would, runs the normal
   * pipeline and reports what propagated. The copy is deleted afterwards.
   */
  'drill:run': {
    request: z
      .object({
        /** How many claims to attach the planted items to, chosen as a hurried analyst would (decided, then SUPPORTED, then the most bound). */
        targets: z.number().int().min(1).max(20).default(3),
        /** Or exactly these claims. */
        claimIds: z.array(Id).min(1).max(20).optional(),
      })
      .strict(),
    response: DrillReport,
  },
} as const;
