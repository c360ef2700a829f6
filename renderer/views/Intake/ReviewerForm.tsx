import { EnumSelect } from '../../components/EnumSelect';
import { useState } from 'react';
import { CLASSIFICATIONS, ROLES, type Classification, type Role } from '../../../shared/domain/enums';
import { Field, list, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/**
 * An admin adds a reviewer profile; the new reviewer types their own passphrase here (it seals the
 * key issued for them on this machine and is never stored in the case).
 */
export function ReviewerForm() {
  const create = useChannelAction('actor:create');
  const [actorId, setActorId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [tenants, setTenants] = useState('');
  const [maxClassification, setMax] = useState<Classification>('internal');
  const [passphrase, setPassphrase] = useState('');
  const e = create.error;
  return (
    <form
      className="grid-form"
      data-testid="intake-reviewer"
      onSubmit={(ev) => {
        ev.preventDefault();
        void create.submit({ actorId, displayName, role, tenants: list(tenants), maxClassification, passphrase }, () => setPassphrase(''));
      }}
    >
      <Field label="Reviewer id" path={['actorId']} error={e} testId="intake-reviewer-id">
        <input data-testid="intake-reviewer-id" className="mono" value={actorId} onChange={(x) => setActorId(x.target.value)} />
      </Field>
      <Field label="Display name" path={['displayName']} error={e} testId="intake-reviewer-name">
        <input data-testid="intake-reviewer-name" value={displayName} onChange={(x) => setDisplayName(x.target.value)} />
      </Field>
      <Field label="Role" path={['role']} error={e} testId="intake-reviewer-role">
        <EnumSelect values={ROLES} value={role} onChange={setRole} testId="intake-reviewer-role" />
      </Field>
      <Field label="Tenants (comma-separated, * for all)" path={['tenants']} error={e} testId="intake-reviewer-tenants">
        <input data-testid="intake-reviewer-tenants" className="mono" value={tenants} onChange={(x) => setTenants(x.target.value)} />
      </Field>
      <Field label="Clearance" path={['maxClassification']} error={e} testId="intake-reviewer-clearance">
        <EnumSelect values={CLASSIFICATIONS} value={maxClassification} onChange={setMax} testId="intake-reviewer-clearance" label={(c) => `up to ${c}`} />
      </Field>
      <Field label="Their passphrase (typed by them, at least 8 characters)" path={['passphrase']} error={e} testId="intake-reviewer-passphrase">
        <input data-testid="intake-reviewer-passphrase" type="password" autoComplete="new-password" value={passphrase} onChange={(x) => setPassphrase(x.target.value)} />
      </Field>
      <div className="wide">
        <button type="submit" data-testid="intake-reviewer-submit" disabled={create.busy}>
          Add reviewer
        </button>
        <Outcome error={create.error} testId="intake-reviewer" done={create.result && `${create.result.displayName} (${create.result.actorId}) added as ${create.result.role}.`} />
      </div>
    </form>
  );
}
