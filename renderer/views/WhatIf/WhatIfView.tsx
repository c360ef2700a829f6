import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CasePointOfFailure } from '../../../shared/ipc/channels/whatIf';
import type { ResponseOf } from '../../../shared/ipc/contract';
import { call } from '../../bridge';
import { StatusBadge } from '../../components/Badges';
import { InertLabel } from '../../components/InertLabel';
import { messageOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';
import { WhatIfOutcome } from './WhatIfOutcome';

const PAGE = 50;

/**
 * Which claims hang on one thread (issue 14 §2): the case's single points of failure, ranked by
 * the decided claims each would flip, and a what-if mode that pretends chosen evidence revoked
 * and shows what would change. Both are read-only: nothing is revoked or written here.
 */
export function WhatIfView() {
  const { pretend, setPretend, focusGraph, setView } = useWorkbench(
    useShallow((s) => ({ pretend: s.whatIfRevisions, setPretend: s.setWhatIfRevisions, focusGraph: s.focusGraph, setView: s.setView })),
  );
  const [points, setPoints] = useState<ResponseOf<'whatIf:case'> | null>(null);
  const [pointsError, setPointsError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ResponseOf<'whatIf:revoke'> | null>(null);
  const [outcomeError, setOutcomeError] = useState<string | null>(null);
  const [extra, setExtra] = useState('');
  const asked = useRef(0);

  const readPoints = useCallback(async (limit: number) => {
    try {
      setPoints(await call('whatIf:case', { limit }));
      setPointsError(null);
    } catch (err) {
      setPointsError(messageOf(err));
    }
  }, []);
  useEffect(() => void readPoints(PAGE), [readPoints]);

  // The what-if follows the chosen revisions: a later answer replaces an earlier one.
  useEffect(() => {
    const ticket = ++asked.current;
    if (pretend.length === 0) {
      setOutcome(null);
      setOutcomeError(null);
      return;
    }
    call('whatIf:revoke', { revisionIds: pretend }).then(
      (value) => ticket === asked.current && (setOutcome(value), setOutcomeError(null)),
      (err: unknown) => ticket === asked.current && (setOutcome(null), setOutcomeError(messageOf(err))),
    );
  }, [pretend]);

  const toggle = (ref: string) => setPretend(pretend.includes(ref) ? pretend.filter((r) => r !== ref) : [...pretend, ref]);
  const add = () => {
    const ids = extra.split(/[\s,]+/).filter((id) => id && !pretend.includes(id));
    if (ids.length > 0) setPretend([...pretend, ...ids]);
    setExtra('');
  };
  const openClaim = (claimId: string) => {
    void focusGraph({ kind: 'claim', id: claimId });
    setView('graph');
  };

  return (
    <section className="panel stack" data-testid="whatif">
      <h1>What-if</h1>
      <p className="lead">
        Which conclusions hang on one thread. Pretend evidence revoked and see which claims, decisions and remediations would change.{' '}
        <b>Nothing here is revoked or written.</b>
      </p>

      <div className="card stack" data-testid="whatif-pretend">
        <h2>Pretend revoked</h2>
        <div className="row wrap">
          {pretend.length === 0 && <span className="muted small">Nothing chosen: tick items below, or add revision ids.</span>}
          {pretend.map((id) => (
            <span key={id} className="tag mono" data-testid={`whatif-chosen-${id}`}>
              {id}{' '}
              <button type="button" className="link small" aria-label={`Stop pretending ${id} revoked`} onClick={() => toggle(id)}>
                ×
              </button>
            </span>
          ))}
        </div>
        <form
          className="row wrap"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <label className="field grow">
            Revision ids
            <input data-testid="whatif-add-input" value={extra} placeholder="ev-12@1, ev-40@2" onChange={(e) => setExtra(e.target.value)} />
          </label>
          <button type="submit" className="secondary small" data-testid="whatif-add">
            Add
          </button>
          {pretend.length > 0 && (
            <button type="button" className="secondary small" data-testid="whatif-clear" onClick={() => setPretend([])}>
              Clear
            </button>
          )}
        </form>
        {outcomeError && (
          <div className="error-notice" role="alert" data-testid="whatif-error">
            The what-if could not be computed: {outcomeError}
          </div>
        )}
        {outcome && <WhatIfOutcome outcome={outcome} onOpenClaim={openClaim} />}
      </div>

      <h2>Single points of failure</h2>
      <p className="muted small">
        Items whose loss alone would change a claim's status, most decided claims first. A claim with two independent sources for what it rests on has
        none.
      </p>
      {pointsError && (
        <div className="error-notice" role="alert" data-testid="whatif-points-error">
          The points of failure could not be read: {pointsError}{' '}
          <button type="button" className="secondary small" onClick={() => void readPoints(PAGE)}>
            Retry
          </button>
        </div>
      )}
      {points && (
        <>
          <p className="small" data-testid="whatif-points-summary">
            {points.total.toLocaleString('en')} items are single points of failure for {points.claimsWithPoints.toLocaleString('en')} claims.
          </p>
          <PointsTable items={points.items} chosen={pretend} onToggle={toggle} onOpenClaim={openClaim} />
          {points.items.length < points.total && (
            <button type="button" className="secondary small" data-testid="whatif-points-more" onClick={() => void readPoints(points.items.length + PAGE)}>
              Show {Math.min(PAGE, points.total - points.items.length)} more
            </button>
          )}
        </>
      )}
    </section>
  );
}

function PointsTable({
  items,
  chosen,
  onToggle,
  onOpenClaim,
}: {
  items: readonly CasePointOfFailure[];
  chosen: readonly string[];
  onToggle: (ref: string) => void;
  onOpenClaim: (claimId: string) => void;
}) {
  if (items.length === 0) return <p className="muted" data-testid="whatif-points-empty">No single points of failure among the claims you can see.</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Single points of failure">
      <table className="table dense" data-testid="whatif-points">
        <thead>
          <tr>
            <th scope="col">Pretend</th>
            <th scope="col">Item</th>
            <th scope="col">Decided claims</th>
            <th scope="col">Claims</th>
            <th scope="col">Would flip</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.ref} data-testid={`whatif-point-${p.ref}`}>
              <td>
                {p.kind === 'revision' ? (
                  <input type="checkbox" aria-label={`Pretend ${p.ref} revoked`} checked={chosen.includes(p.ref)} onChange={() => onToggle(p.ref)} data-testid={`whatif-toggle-${p.ref}`} />
                ) : (
                  <span className="muted small" title="An original source is not revoked itself; pretend its evidence revoked instead">
                    source
                  </span>
                )}
              </td>
              <td>
                <div className="small">
                  <InertLabel text={p.title} />
                </div>
                <code className="small">{p.ref}</code>
              </td>
              <td>
                <b>{p.decidedClaims}</b>
              </td>
              <td>{p.claims}</td>
              <td>
                <ul className="plain small">
                  {p.sample.map((s) => (
                    <li key={s.claimId} className="row">
                      <button type="button" className="link mono" onClick={() => onOpenClaim(s.claimId)}>
                        {s.claimId}
                      </button>
                      <StatusBadge status={s.statusBefore} /> → <StatusBadge status={s.statusAfter} />
                      {s.decided && <span className="tag">decided</span>}
                    </li>
                  ))}
                  {p.claims > p.sample.length && <li className="muted">and {p.claims - p.sample.length} more</li>}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
