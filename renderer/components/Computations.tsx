import { useCallback, useEffect, useState } from 'react';
import type { ComputationView } from '../../shared/ipc/channels/computations';
import { call } from '../bridge';
import { messageOf } from '../state/actionError';
import { ComputationForm } from './ComputationForm';

/**
 * The claim's computations (seed 004): what each answers, its expression, every input with the
 * evidence span it was quoted from, and the result; FENCED when an input's evidence left normal
 * flows. A computation answers a quantity; the claim's status never follows from it.
 */
export function Computations({ claimId, version, revisionIds, testId }: { claimId: string; version: string; revisionIds: readonly string[]; testId: string }) {
  const [list, setList] = useState<{ computations: ComputationView[]; hidden: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const read = useCallback(async () => {
    try {
      setList(await call('computation:list', { claimId }));
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [claimId]);
  useEffect(() => void read(), [read, version]);

  return (
    <div className="stack" data-testid={testId}>
      {error && (
        <p className="error-notice small" role="alert">
          The computations could not be read: {error}
        </p>
      )}
      {list && list.computations.length === 0 && <p className="muted small">No computation recorded on this claim.</p>}
      <ul className="plain">
        {list?.computations.map((c) => (
          <li key={c.computationId} className="binding" data-testid={`${testId}-${c.computationId}`}>
            <div className="row wrap">
              <span className={`badge computation-${c.state}`} data-testid={`${testId}-${c.computationId}-state`}>
                {c.state}
              </span>
              <b>{c.question}</b>
              <code className="small">{c.computationId}</code>
            </div>
            <div className="mono small">
              {c.expression} = <b data-testid={`${testId}-${c.computationId}-result`}>{c.result}</b>
            </div>
            <ul className="plain small muted">
              {c.inputs.map((i) => (
                <li key={i.name}>
                  <code>{i.name}</code> = {i.value}, quoted “{i.quote}” from <code>{i.revisionId}</code> [{i.start}, {i.end})
                </li>
              ))}
            </ul>
            {c.reasons.length > 0 && (
              <ul className="reasons small warn-text" data-testid={`${testId}-${c.computationId}-reasons`}>
                {c.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {list && list.hidden > 0 && <p className="muted small">{list.hidden} computation(s) over evidence outside your clearance are not shown.</p>}
      {revisionIds.length === 0 ? (
        <p className="muted small">Bind evidence to the claim to compute over it.</p>
      ) : adding ? (
        <ComputationForm claimId={claimId} revisionIds={revisionIds} testId={`${testId}-form`} onDone={() => (setAdding(false), void read())} />
      ) : (
        <button type="button" className="secondary small" data-testid={`${testId}-new`} onClick={() => setAdding(true)}>
          New computation…
        </button>
      )}
    </div>
  );
}
