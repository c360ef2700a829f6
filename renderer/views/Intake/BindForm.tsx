import { EnumSelect } from '../../components/EnumSelect';
import { useState } from 'react';
import { call } from '../../bridge';
import { BINDING_ROLES, RELATIONS, type BindingRole, type Relation } from '../../../shared/domain/enums';
import { ClaimPick, RevisionPick } from '../../components/SearchPick';
import { Field, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/**
 * Binds an exact evidence revision to a claim with a typed relation (supports, partially supports,
 * refutes…) and a role; the claim's status follows from the case's rule, never from this form.
 */
export function BindForm() {
  const bind = useChannelAction('claim:bind');
  const [claimId, setClaimId] = useState('');
  const [revisionId, setRevisionId] = useState('');
  const [relation, setRelation] = useState<Relation>('FULL_SUPPORT');
  const [role, setRole] = useState<BindingRole>('SUPPORTING');
  const [rationale, setRationale] = useState('');
  const e = bind.error;
  // The claim's status after the bind, as the store derives it (read once the bind is recorded).
  const [status, setStatus] = useState<{ claimId: string; status: string } | null>(null);
  const bound = async () => {
    setRationale('');
    try {
      const claim = await call('claim:get', { claimId });
      setStatus({ claimId: claim.claimId, status: claim.status });
    } catch {
      setStatus(null);
    }
  };
  return (
    <form
      className="grid-form"
      data-testid="intake-bind"
      onSubmit={(ev) => {
        ev.preventDefault();
        void bind.submit({ claimId: claimId.trim(), revisionId: revisionId.trim(), relation, role, rationale }, () => void bound());
      }}
    >
      <Field label="Claim" path={['claimId']} error={e} testId="intake-bind-claim">
        <ClaimPick testId="intake-bind-claim" label="Claim" value={claimId} onChange={setClaimId} />
      </Field>
      <Field label="Evidence revision" path={['revisionId']} error={e} testId="intake-bind-revision">
        <RevisionPick testId="intake-bind-revision" label="Evidence revision" value={revisionId} onChange={setRevisionId} />
      </Field>
      <Field label="Relation" path={['relation']} error={e} testId="intake-bind-relation">
        <EnumSelect values={RELATIONS} value={relation} onChange={setRelation} testId="intake-bind-relation" />
      </Field>
      <Field label="Role" path={['role']} error={e} testId="intake-bind-role">
        <EnumSelect values={BINDING_ROLES} value={role} onChange={setRole} testId="intake-bind-role" />
      </Field>
      <Field label="Rationale (optional)" path={['rationale']} error={e} wide testId="intake-bind-rationale">
        <input value={rationale} onChange={(x) => setRationale(x.target.value)} />
      </Field>
      <div className="wide">
        <button type="submit" data-testid="intake-bind-submit" disabled={bind.busy}>
          Bind
        </button>
        {status && (
          <span className="muted" data-testid="intake-bind-status">
            {' '}
            {status.claimId} is now {status.status}
          </span>
        )}
        <Outcome error={bind.error} testId="intake-bind" done={bind.result && `${bind.result.revisionId} bound to ${bind.result.claimId} as ${bind.result.relation}/${bind.result.role}.`} />
      </div>
    </form>
  );
}
