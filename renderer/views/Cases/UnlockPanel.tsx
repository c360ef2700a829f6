import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectUnlock } from '../../state/selectors';
import { useWorkbench } from '../../state/store';

/**
 * The lock screen of a window (issue 9.4): acting as a reviewer means unlocking their signing key
 * with their passphrase, here, for this window only. Nothing of the case is shown until then.
 */
export function UnlockPanel() {
  const { caseInfo, actors, unlockError, unlock } = useWorkbench(useShallow(selectUnlock));
  const [actorId, setActorId] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const chosen = actorId || actors[0]?.actorId || '';
  return (
    <section className="panel unlock" data-testid="unlock-panel">
      <h1>{caseInfo?.name ?? 'Case'} is locked</h1>
      <p className="lead">
        Choose who you are and enter your passphrase. It opens your signing key on this machine for this window only; every
        change you make is signed with it, and the window locks again after {caseInfo?.idleLockMinutes ?? 15} minutes without use.
      </p>
      <form
        className="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void unlock(chosen, passphrase).then((ok) => {
            setBusy(false);
            if (ok) setPassphrase('');
          });
        }}
      >
        <label className="field">
          Reviewer
          <select data-testid="unlock-actor" value={chosen} onChange={(e) => setActorId(e.target.value)}>
            {actors.map((a) => (
              <option key={a.actorId} value={a.actorId}>
                {a.displayName} · {a.role} · up to {a.maxClassification}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Passphrase
          <input
            data-testid="unlock-passphrase"
            type="password"
            autoComplete="current-password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </label>
        {unlockError && (
          <p role="alert" className="error wide" data-testid="unlock-error">
            {unlockError}
          </p>
        )}
        <div>
          <button type="submit" data-testid="unlock-submit" disabled={busy || !chosen || passphrase.length === 0}>
            {busy ? 'Unlocking…' : 'Unlock'}
          </button>
        </div>
      </form>
    </section>
  );
}
