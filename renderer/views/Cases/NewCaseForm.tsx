import { EnumSelect } from '../../components/EnumSelect';
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectCaseActions } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';

/** Creates an empty case file; its creator becomes the case's first admin reviewer. */
export function NewCaseForm() {
  const { createCase } = useWorkbench(useShallow(selectCaseActions));
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [actorId, setActorId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [homeTenants, setHomeTenants] = useState('');
  const [homeCeiling, setHomeCeiling] = useState<Classification>('restricted');
  const mismatch = repeat.length > 0 && repeat !== passphrase;
  return (
    <form
      className="grid-form"
      data-testid="new-case-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (passphrase !== repeat) return;
        const tenants = homeTenants.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
        const homeScope = { tenants: tenants.length > 0 ? tenants : ['*'], maxClassification: homeCeiling };
        void createCase({ path, name, description, admin: { actorId, displayName, passphrase }, homeScope }).then((ok) => {
          if (ok) {
            setPath('');
            setPassphrase('');
            setRepeat('');
          }
        });
      }}
    >
      <label className="field">
        Case file
        <input data-testid="new-case-path" className="mono" placeholder="/cases/ir-2232.case.sqlite" value={path} onChange={(e) => setPath(e.target.value)} />
      </label>
      <label className="field">
        Case name
        <input data-testid="new-case-name" placeholder="Ransomware on FS02 (IR-2232)" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        Your reviewer id
        <input data-testid="new-case-actor" className="mono" placeholder="lena.k" value={actorId} onChange={(e) => setActorId(e.target.value)} />
      </label>
      <label className="field">
        Your display name
        <input data-testid="new-case-display" placeholder="Lena Kowalski" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      </label>
      <label className="field">
        Your passphrase (at least 8 characters; it seals your signing key on this machine)
        <input data-testid="new-case-passphrase" type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
      </label>
      <label className="field">
        Passphrase again
        <input data-testid="new-case-passphrase-repeat" type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        {mismatch && <span className="error" data-testid="new-case-passphrase-mismatch">the two passphrases differ</span>}
      </label>
      <label className="field">
        Home tenants (comma-separated; empty means every tenant)
        <input data-testid="new-case-home-tenants" className="mono" placeholder="acme" value={homeTenants} onChange={(e) => setHomeTenants(e.target.value)} />
      </label>
      <label className="field">
        Home classification ceiling
        <EnumSelect values={CLASSIFICATIONS} value={homeCeiling} onChange={setHomeCeiling} testId="new-case-home-ceiling" />
        <span className="muted">Ids chosen for items inside the home scope, by reviewers cleared for all of it, are kept as typed; elsewhere they get a ~tenant.classification suffix, so a taken id never reveals an item you cannot see.</span>
      </label>
      <label className="field wide">
        Description
        <textarea data-testid="new-case-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div>
        <button type="submit" data-testid="new-case-submit" disabled={mismatch}>
          Create case
        </button>
      </div>
    </form>
  );
}
