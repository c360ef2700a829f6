import type { EvidenceDetail } from '../../shared/ipc/channels/evidence';
import { StateBadge } from './Badges';
import { formatTime } from './format';

/**
 * The revisions of one evidence lineage that the actor can see, newest first: a correction is a new
 * revision that supersedes the previous one, and both stay inspectable.
 */
export function Lineage({
  detail,
  onSelect,
  testId,
}: {
  detail: EvidenceDetail;
  onSelect: (revisionId: string) => void;
  testId: string;
}) {
  const lineage = detail.lineage;
  return (
    <div data-testid={testId}>
      <p className="muted">
        {detail.supersedes ? (
          <>
            Supersedes <code data-testid={`${testId}-supersedes`}>{detail.supersedes}</code>.
          </>
        ) : (
          'First revision of this lineage.'
        )}
      </p>
      <ul className="plain lineage">
        {lineage.map((r) => (
          <li key={r.revisionId} className={r.revisionId === detail.revisionId ? 'current' : undefined}>
            {r.revisionId === detail.revisionId ? (
              <code>{r.revisionId}</code>
            ) : (
              <button type="button" className="link mono" data-testid={`${testId}-open-${r.revisionId}`} onClick={() => onSelect(r.revisionId)}>
                {r.revisionId}
              </button>
            )}{' '}
            <StateBadge state={r.state} /> <span className="muted">observed {formatTime(r.observedAt)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
