import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CopyLinkView } from '../../shared/ipc/channels/evidence';
import { selectActions } from '../state/selectors';
import { useWorkbench } from '../state/store';
import type { ActionError } from '../state/types';
import { ErrorNotice } from './ErrorNotice';

/**
 * Probable copies of one revision (DESIGN §3.11): why the workbench counts it as one source with
 * another, and the reviewer's way to record that the two are independent after all.
 */
export function CopyLinks({ revisionId, copies, testId }: { revisionId: string; copies: readonly CopyLinkView[]; testId: string }) {
  if (copies.length === 0) {
    return (
      <p className="muted small" data-testid={`${testId}-none`}>
        No probable copies found on ingest: this revision counts as its own source (unless provenance or an independence group says otherwise).
      </p>
    );
  }
  return (
    <ul className="plain copies" data-testid={testId}>
      {copies.map((l) => (
        <CopyLink key={`${l.revisionId}|${l.copyOf}`} link={l} revisionId={revisionId} testId={`${testId}-${l.revisionId === revisionId ? l.copyOf : l.revisionId}`} />
      ))}
    </ul>
  );
}

function CopyLink({ link, revisionId, testId }: { link: CopyLinkView; revisionId: string; testId: string }) {
  const { confirmIndependent, selectRevision } = useWorkbench(useShallow(selectActions));
  const [reason, setReason] = useState('');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const other = link.revisionId === revisionId ? link.copyOf : link.revisionId;
  const relation = link.revisionId === revisionId ? 'is a probable copy of' : 'was copied, probably, by';
  const submit = async () => {
    setBusy(true);
    const refused = await confirmIndependent({ revisionId: link.revisionId, copyOf: link.copyOf, reason });
    setBusy(false);
    setError(refused);
    if (!refused) setOpen(false);
  };
  return (
    <li className="copy-link" data-testid={testId}>
      <div className="row wrap">
        <span className="small">This revision {relation}</span>
        <button type="button" className="link mono" onClick={() => selectRevision(other)} data-testid={`${testId}-open`}>
          {other}
        </button>
        {link.independent ? (
          <span className="tag ok-tag" data-testid={`${testId}-independent`}>
            independent
          </span>
        ) : (
          <span className="tag warn-tag" data-testid={`${testId}-merged`}>
            counted as one source
          </span>
        )}
      </div>
      <div className="muted small" data-testid={`${testId}-why`}>
        Why: {link.reason}
      </div>
      {link.independent ? (
        <div className="small">
          Confirmed independent by {link.independent.by}: {link.independent.reason}
        </div>
      ) : open ? (
        <div className="confirm-independent">
          <label className="small">
            Why are they independent sources? (receipted)
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} data-testid={`${testId}-reason`} />
          </label>
          <div className="row">
            <button type="button" disabled={busy} onClick={() => void submit()} data-testid={`${testId}-confirm`}>
              Count as independent
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
          {error && <ErrorNotice error={error} testId={`${testId}-error`} />}
        </div>
      ) : (
        <button type="button" className="secondary small" onClick={() => setOpen(true)} data-testid={`${testId}-start`}>
          They are independent…
        </button>
      )}
    </li>
  );
}
