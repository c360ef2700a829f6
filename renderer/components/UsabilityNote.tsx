import type { EvidenceDetail } from '../../shared/ipc/channels/evidence';

/**
 * Usable(E) = Validated ∧ Authorized ∧ Fresh ∧ Applicable (and not fenced), as the service computed
 * it for the acting reviewer. The failing conjuncts are the reasons; confidence never appears here.
 */
export function UsabilityNote({ usability, testId }: { usability: EvidenceDetail['usability']; testId: string }) {
  if (usability.usable) {
    return (
      <p className="usability ok" data-testid={testId}>
        Usable: validated, authorized, fresh and applicable.
      </p>
    );
  }
  return (
    <div className="usability not-usable" data-testid={testId}>
      <span className="usability-head">Not usable in normal flows:</span>
      <ul className="plain">
        {usability.reasons.map((r) => (
          <li key={r.conjunct}>
            <span className="conjunct">{r.conjunct}</span> {r.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
