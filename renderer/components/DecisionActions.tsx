import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DecisionView } from '../../shared/ipc/channels/decisions';
import { selectActorId, selectReviewActions } from '../state/selectors';
import type { ActionError } from '../state/types';
import { useWorkbench } from '../state/store';
import { ErrorNotice } from './ErrorNotice';
import { shortHash } from './format';

/** What the acting reviewer may expect of the service, said before they press anything. */
function hintFor(d: DecisionView, actorId: string | null, claimAuthor: string): string {
  if (!d.current) return 'This proposal is stale: an approval is refused. Reject it (its author may withdraw it) and propose on the claim as it is now.';
  if (actorId === d.proposedBy) return 'You proposed this decision: you may withdraw it; another reviewer must approve it (four eyes).';
  if (actorId === claimAuthor) return 'You wrote this claim: another reviewer must approve a decision on it (four eyes).';
  return `Approving records that you reviewed exactly fingerprint ${shortHash(d.fingerprint)}: generation ${d.generation}, verdict ${d.verdict} and the revisions listed above.`;
}

/**
 * Approve, reject or withdraw an open proposal. Approval carries the fingerprint shown on screen,
 * the one the reviewer read: if the claim moved since, the service refuses it as stale (CONFLICT).
 * The buttons are never hidden by role: the service decides, and its refusal is shown verbatim.
 */
export function DecisionActions({ decision, claimAuthor, testId }: { decision: DecisionView; claimAuthor: string; testId: string }) {
  const actorId = useWorkbench(selectActorId);
  const { approveDecision, rejectDecision, withdrawDecision } = useWorkbench(useShallow(selectReviewActions));
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);

  const run = async (action: () => Promise<ActionError | null>) => {
    setBusy(true);
    const refused = await action();
    setBusy(false);
    setError(refused);
    if (!refused) setText('');
  };
  const { decisionId, claimId, fingerprint } = decision;
  const note = text.trim();

  return (
    <div className="decision-actions" data-testid={`${testId}-actions`}>
      <p className="muted small">{hintFor(decision, actorId, claimAuthor)}</p>
      <textarea
        rows={2}
        data-testid={`${testId}-text`}
        aria-label="Note or reason"
        placeholder="Note for an approval (optional); reason to reject or withdraw (required)"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="row wrap">
        <button
          type="button"
          data-testid={`${testId}-approve`}
          disabled={busy}
          onClick={() => void run(() => approveDecision(claimId, { decisionId, fingerprint, ...(note ? { note } : {}) }))}
        >
          Approve {shortHash(fingerprint, 8)}
        </button>
        <button type="button" className="secondary" data-testid={`${testId}-reject`} disabled={busy} onClick={() => void run(() => rejectDecision(claimId, { decisionId, reason: text }))}>
          Reject
        </button>
        <button type="button" className="secondary" data-testid={`${testId}-withdraw`} disabled={busy} onClick={() => void run(() => withdrawDecision(claimId, { decisionId, reason: text }))}>
          Withdraw
        </button>
      </div>
      {error && <ErrorNotice error={error} testId={`${testId}-error`} />}
    </div>
  );
}
