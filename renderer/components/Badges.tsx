import { EVIDENCE_STRENGTH, type ClaimStatus, type EvidenceKind, type LifecycleState, type Relation, type SupportProjection } from '../../shared/domain/enums';
import type { QuorumTier } from '../../shared/domain/quorum';
import type { DECISION_STATUSES } from '../../shared/ipc/channels/decisions';
import type { DECISION_STATES } from '../../shared/ipc/channels/review';

export type DecisionState = (typeof DECISION_STATES)[number];
type DecisionStatus = (typeof DECISION_STATUSES)[number];

export function StateBadge({ state, testId }: { state: LifecycleState; testId?: string }) {
  return (
    <span className={`badge state-${state}`} data-testid={testId}>
      {state}
    </span>
  );
}

export function StatusBadge({ status, testId }: { status: ClaimStatus; testId?: string }) {
  return (
    <span className={`badge status-${status}`} data-testid={testId}>
      {status}
    </span>
  );
}

export function RelationTag({ relation }: { relation: Relation }) {
  return <span className={`tag rel-${relation}`}>{relation.replace('_', ' ')}</span>;
}

const STRENGTH_LABEL: Record<(typeof EVIDENCE_STRENGTH)[EvidenceKind], string> = {
  strong: 'strong',
  medium: 'medium',
  weak: 'weak',
  derived: 'derived: traces to sources',
  reference_only: 'reference only',
};

/** Seed 002: the kind of evidence bounds how much it can carry, whatever its confidence says. */
export function StrengthTag({ kind }: { kind: EvidenceKind }) {
  const strength = EVIDENCE_STRENGTH[kind];
  return (
    <span className={`tag strength-${strength}`} title={`evidence strength of ${kind}`}>
      {STRENGTH_LABEL[strength]}
    </span>
  );
}

const PROJECTION_LABEL: Record<SupportProjection, string> = {
  ELIGIBLE: 'ELIGIBLE',
  PARTIALLY_SUPPORTED: 'PARTIALLY SUPPORTED',
  BLOCKED: 'BLOCKED',
  PENDING_REVALIDATION: 'PENDING REVALIDATION',
};

/** A support projection (DESIGN §3.5): whether the evidence set still carries the conclusion. */
export function ProjectionBadge({ projection, testId }: { projection: SupportProjection; testId?: string }) {
  return (
    <span className={`badge projection-${projection}`} data-testid={testId} data-projection={projection} title="support projection">
      {PROJECTION_LABEL[projection]}
    </span>
  );
}

const DECISION_STATE_TITLE: Record<DecisionState, string> = {
  UNDECIDED: 'no decision in force and none proposed',
  PROPOSED: 'a proposal awaits approval by a second reviewer',
  DECIDED: 'an approved decision is current',
  STALE: 'the approved decision no longer matches the claim: its fingerprint is stale',
  UNRESOLVED: 'a reviewer recorded that the claim cannot be decided',
};

/** Where a claim's review stands (review:list / review:get). */
export function DecisionStateBadge({ state, verdict, testId }: { state: DecisionState; verdict?: string | null; testId?: string }) {
  return (
    <span className={`badge review-state decision-state-${state}`} data-testid={testId} data-decision-state={state} title={`review: ${DECISION_STATE_TITLE[state]}`}>
      {verdict ? `${state} · ${verdict}` : state}
    </span>
  );
}

export function DecisionStatusBadge({ status, testId }: { status: DecisionStatus; testId?: string }) {
  return (
    <span className={`badge decision-status-${status}`} data-testid={testId}>
      {status}
    </span>
  );
}

export function QuorumTierBadge({ tier, testId }: { tier: QuorumTier; testId?: string }) {
  return (
    <span className={`badge quorum-${tier}`} data-testid={testId} data-tier={tier} title="quorum review outcome">
      {tier}
    </span>
  );
}
