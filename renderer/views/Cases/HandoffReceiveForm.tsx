import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ResponseOf } from '../../../shared/ipc/contract';
import { call } from '../../bridge';
import { ErrorNotice } from '../../components/ErrorNotice';
import { actionErrorOf } from '../../state/actionError';
import { selectCaseActions } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import type { ActionError } from '../../state/types';

/**
 * Receives a case handed off from another machine: the archive's hash, the whole audit chain and
 * the sender's signature are checked before the case is placed at the path given; then it can be opened.
 */
export function HandoffReceiveForm() {
  const { openCase } = useWorkbench(useShallow(selectCaseActions));
  const [archive, setArchive] = useState('');
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [received, setReceived] = useState<ResponseOf<'case:handoffImport'> | null>(null);
  return (
    <form
      className="grid-form"
      data-testid="handoff-receive"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        setReceived(null);
        call('case:handoffImport', { archive, path: target })
          .then((r) => setReceived(r))
          .catch((err: unknown) => setError(actionErrorOf(err)))
          .finally(() => setBusy(false));
      }}
    >
      <label className="field">
        Hand-off archive
        <input data-testid="handoff-archive" className="mono" placeholder="/media/usb/ir-2231.erwb" value={archive} onChange={(e) => setArchive(e.target.value)} />
      </label>
      <label className="field">
        Save the received case as
        <input data-testid="handoff-target" className="mono" placeholder="/cases/ir-2231.case.sqlite" value={target} onChange={(e) => setTarget(e.target.value)} />
      </label>
      <div className="wide">
        <button type="submit" data-testid="handoff-receive-submit" disabled={busy || !archive || !target}>
          {busy ? 'Verifying…' : 'Verify and receive'}
        </button>
        {error && <ErrorNotice error={error} testId="handoff-error" />}
        {received && (
          <p className="ok" role="status" data-testid="handoff-received">
            Received {received.manifest.caseName} from {received.manifest.exportedBy.actorId} (signed with key {received.manifest.exportedBy.keyId}); {received.verified}{' '}
            <button type="button" data-testid="handoff-open" onClick={() => void openCase(received.path)}>
              Open it
            </button>
          </p>
        )}
      </div>
    </form>
  );
}
