import { EVIDENCE_STRENGTH, type ClaimStatus, type EvidenceKind, type LifecycleState, type Relation } from '../../shared/domain/enums';

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
