import type { SupportProjection } from '../../../shared/domain/enums';

const LABEL: Record<SupportProjection, string> = {
  ELIGIBLE: 'ELIGIBLE',
  PARTIALLY_SUPPORTED: 'PARTIALLY SUPPORTED',
  BLOCKED: 'BLOCKED',
  PENDING_REVALIDATION: 'PENDING REVALIDATION',
};

/** A support projection (DESIGN §3.5): whether the evidence set still carries the conclusion. */
export function ProjectionBadge({ projection, testId }: { projection: SupportProjection; testId?: string }) {
  return (
    <span className={`badge projection-${projection}`} data-testid={testId} data-projection={projection} title="support projection">
      {LABEL[projection]}
    </span>
  );
}
