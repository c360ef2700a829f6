import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { VERDICTS, type Verdict } from '../../shared/domain/enums';
import { selectReviewActions } from '../state/selectors';
import type { ActionError } from '../state/types';
import { useWorkbench } from '../state/store';
import { ErrorNotice } from './ErrorNotice';
import { parseRefs } from './format';
import { call } from '../bridge';
import type { ComputationView } from '../../shared/ipc/channels/computations';

/** The claim's CURRENT computations, the ones a decision may cite. */
function useCurrentComputations(claimId: string): ComputationView[] {
  const [list, setList] = useState<ComputationView[]>([]);
  useEffect(() => {
    let current = true;
    call('computation:list', { claimId }).then(
      (r) => current && setList(r.computations.filter((c) => c.state === 'CURRENT')),
      // Citing is optional: without the list the form still proposes, and the service checks refs.
      () => current && setList([]),
    );
    return () => {
      current = false;
    };
  }, [claimId]);
  return list;
}

const VERDICT_HINT: Record<Verdict, string> = {
  SUPPORTED: 'the support holds; any refutation is explained',
  REFUTED: 'the refutation holds; any support is explained',
  UNRESOLVED: 'both sides stay credible; the claim cannot be decided',
  NEEDS_MORE_EVIDENCE: 'nothing settles it yet',
};

/**
 * A decision proposal: verdict, rationale and the computations it relies on. The fingerprint covers
 * the claim generation, the verdict and the exact revisions bound now; another reviewer approves it.
 * Used by the Disputes outcome and the Review view, with their own test id prefix.
 */
export function ProposeDecisionForm({ claimId, testId, defaultVerdict = 'NEEDS_MORE_EVIDENCE' }: { claimId: string; testId: string; defaultVerdict?: Verdict }) {
  const { proposeDecision } = useWorkbench(useShallow(selectReviewActions));
  const [verdict, setVerdict] = useState<Verdict>(defaultVerdict);
  const [rationale, setRationale] = useState('');
  const [refs, setRefs] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [cited, setCited] = useState<string[]>([]);
  const computations = useCurrentComputations(claimId);

  const submit = async () => {
    setBusy(true);
    // Sent as typed, even empty: the service's validation is the rule and its message names the field.
    const refused = await proposeDecision({ claimId, verdict, rationale, computationRefs: [...cited, ...parseRefs(refs)] });
    setBusy(false);
    setError(refused);
    if (!refused) {
      setRationale('');
      setRefs('');
      setCited([]);
    }
  };

  return (
    <form
      className="transition-form"
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="field inline">
        Propose
        <select data-testid={`${testId}-verdict`} value={verdict} onChange={(e) => setVerdict(e.target.value as Verdict)}>
          {VERDICTS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small">{VERDICT_HINT[verdict]}. Another reviewer approves it (four eyes).</p>
      <textarea
        data-testid={`${testId}-rationale`}
        rows={2}
        aria-label="Rationale"
        placeholder="Rationale: which side holds and why (provenance, time, version, independence)"
        value={rationale}
        onChange={(e) => setRationale(e.target.value)}
      />
      {computations.length > 0 && (
        <fieldset className="stack small" data-testid={`${testId}-cite`}>
          <legend>Cite computations on this claim</legend>
          {computations.map((c) => (
            <label key={c.computationId} className="row">
              <input
                type="checkbox"
                data-testid={`${testId}-cite-${c.computationId}`}
                checked={cited.includes(c.computationId)}
                onChange={(e) => setCited(e.target.checked ? [...cited, c.computationId] : cited.filter((id) => id !== c.computationId))}
              />
              {c.question}: <span className="mono">{c.result}</span>
            </label>
          ))}
        </fieldset>
      )}
      <input
        data-testid={`${testId}-computations`}
        className="mono"
        aria-label="Computation refs"
        placeholder="Other refs, comma separated (optional): queries, scripts, notebooks the verdict relies on"
        value={refs}
        onChange={(e) => setRefs(e.target.value)}
      />
      <div className="row">
        <button type="submit" data-testid={`${testId}-submit`} disabled={busy}>
          Propose decision
        </button>
      </div>
      {error && <ErrorNotice error={error} testId={`${testId}-error`} />}
    </form>
  );
}
