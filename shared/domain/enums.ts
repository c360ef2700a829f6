import { z } from 'zod';

/** Lifecycle of one evidence revision (DESIGN §3.1). There is deliberately no CONFIRMED state. */
export const LIFECYCLE_STATES = [
  'CANDIDATE',
  'VALIDATED',
  'DISPUTED',
  'SUPERSEDED',
  'QUARANTINED',
  'REVOKED',
] as const;
export const LifecycleState = z.enum(LIFECYCLE_STATES);
export type LifecycleState = z.infer<typeof LifecycleState>;

export const RELATIONS = [
  'FULL_SUPPORT',
  'PARTIAL_SUPPORT',
  'REFUTES',
  'CONTEXT_ONLY',
  'IRRELEVANT',
  'UNKNOWN',
] as const;
export const Relation = z.enum(RELATIONS);
export type Relation = z.infer<typeof Relation>;

export const BINDING_ROLES = ['REQUIRED', 'SUPPORTING', 'CONTEXT'] as const;
export const BindingRole = z.enum(BINDING_ROLES);
export type BindingRole = z.infer<typeof BindingRole>;

export const CLAIM_STATUSES = ['SUPPORTED', 'REFUTED', 'MIXED', 'INSUFFICIENT', 'UNRESOLVED'] as const;
export const ClaimStatus = z.enum(CLAIM_STATUSES);
export type ClaimStatus = z.infer<typeof ClaimStatus>;

/** Evidence kinds and their strength (seed 002). */
export const EVIDENCE_KINDS = [
  'telemetry',
  'log_record',
  'forensic_artifact',
  'tool_result',
  'vendor_report',
  'threat_intel',
  'analyst_note',
  'agent_summary',
  'self_report',
] as const;
export const EvidenceKind = z.enum(EVIDENCE_KINDS);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

export const EVIDENCE_STRENGTH = {
  telemetry: 'strong',
  log_record: 'strong',
  forensic_artifact: 'strong',
  tool_result: 'strong',
  vendor_report: 'medium',
  threat_intel: 'medium',
  analyst_note: 'weak',
  agent_summary: 'derived',
  self_report: 'reference_only',
} as const satisfies Record<EvidenceKind, string>;
export type EvidenceStrength = (typeof EVIDENCE_STRENGTH)[EvidenceKind];

/**
 * States that take a revision out of normal flows and so fence its dependents (DESIGN §3.5): a
 * move into one of them is protected first (fence + outbox job in the same transaction) and
 * converged after. DERIVED is the worker's fence on evidence derived from a fenced revision.
 */
export const FENCING_STATES = ['REVOKED', 'SUPERSEDED', 'QUARANTINED', 'DISPUTED'] as const;
export type FencingState = (typeof FENCING_STATES)[number];
export const FENCE_CAUSES = [...FENCING_STATES, 'DERIVED'] as const;
export const FenceCause = z.enum(FENCE_CAUSES);
export type FenceCause = z.infer<typeof FenceCause>;

export const CLASSIFICATIONS = ['public', 'internal', 'confidential', 'restricted'] as const;
export const Classification = z.enum(CLASSIFICATIONS);
export type Classification = z.infer<typeof Classification>;

export const ROLES = ['analyst', 'reviewer', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const TRUST_TIERS = ['authoritative', 'trusted', 'unverified', 'untrusted'] as const;
export const TrustTier = z.enum(TRUST_TIERS);
export type TrustTier = z.infer<typeof TrustTier>;

export const SUPPORT_PROJECTIONS = [
  'ELIGIBLE',
  'PARTIALLY_SUPPORTED',
  'BLOCKED',
  'PENDING_REVALIDATION',
] as const;
export const SupportProjection = z.enum(SUPPORT_PROJECTIONS);
export type SupportProjection = z.infer<typeof SupportProjection>;

export const VERDICTS = ['SUPPORTED', 'REFUTED', 'UNRESOLVED', 'NEEDS_MORE_EVIDENCE'] as const;
export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;
