import { useEffect, useState } from 'react';
import type { ResponseOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { messageOf } from '../state/actionError';
import { useWorkbench } from '../state/store';
import { StatusBadge } from './Badges';
import { InertLabel } from './InertLabel';

const KIND_LABEL = { bound: 'bound', derivedFrom: 'derived from', source: 'original source' } as const;

/**
 * A claim's single points of failure (whatIf:claim): each item whose loss alone would change its
 * status, read again whenever the claim is shown with another status or generation.
 */
export function PointsOfFailure({ claimId, version, testId }: { claimId: string; version: string; testId: string }) {
  const openWhatIf = useWorkbench((s) => s.openWhatIf);
  const [answer, setAnswer] = useState<ResponseOf<'whatIf:claim'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    call('whatIf:claim', { claimId }).then(
      (value) => current && (setAnswer(value), setError(null)),
      (err: unknown) => current && setError(messageOf(err)),
    );
    return () => {
      current = false;
    };
  }, [claimId, version]);
  if (error) return <p className="error-notice small" role="alert" data-testid={testId}>Single points of failure could not be read: {error}</p>;
  if (!answer) return null;
  return (
    <div data-testid={testId}>
      {answer.points.length === 0 ? (
        <p className="muted small">No single item's loss would change this claim's status.</p>
      ) : (
        <ul className="plain small">
          {answer.points.map((p) => (
            <li key={`${p.kind}:${p.ref}`} className="row wrap" data-testid={`${testId}-${p.ref}`}>
              <span className="tag">{KIND_LABEL[p.kind]}</span>
              <code>{p.ref}</code>
              {p.kind !== 'source' && <InertLabel text={p.title} />}
              <span className="muted">without it:</span> <StatusBadge status={p.statusAfter} />
              {p.kind !== 'source' && (
                <button type="button" className="link small" onClick={() => openWhatIf([p.ref])}>
                  What if revoked?
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
