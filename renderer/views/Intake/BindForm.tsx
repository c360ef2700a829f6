import { EnumSelect } from '../../components/EnumSelect';
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { BINDING_ROLES, RELATIONS, type BindingRole, type Relation } from '../../../shared/domain/enums';
import { useWorkbench } from '../../state/store';
import { Field, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/**
 * Binds an exact evidence revision to a claim with a typed relation (supports, partially supports,
 * refutes…) and a role; the claim's status follows from the case's rule, never from this form.
 */
export function BindForm() {
  const { claims, evidence } = useWorkbench(useShallow((s) => ({ claims: s.claims, evidence: s.evidence })));
  const bind = useChannelAction('claim:bind');
  const [claimId, setClaimId] = useState('');
  const [revisionId, setRevisionId] = useState('');
  const [relation, setRelation] = useState<Relation>('FULL_SUPPORT');
  const [role, setRole] = useState<BindingRole>('SUPPORTING');
  const [rationale, setRationale] = useState('');
  const e = bind.error;
  const claim = claims.find((c) => c.claimId === claimId);
  return (
    <form
      className="grid-form"
      data-testid="intake-bind"
      onSubmit={(ev) => {
        ev.preventDefault();
        void bind.submit({ claimId, revisionId, relation, role, rationale }, () => setRationale(''));
      }}
    >
      <Field label="Claim" path={['claimId']} error={e} testId="intake-bind-claim">
        <select data-testid="intake-bind-claim" value={claimId} onChange={(x) => setClaimId(x.target.value)}>
          <option value="">choose a claim…</option>
          {claims.map((c) => (
            <option key={c.claimId} value={c.claimId}>
              {c.claimId}: {c.statement.slice(0, 80)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Evidence revision" path={['revisionId']} error={e} testId="intake-bind-revision">
        <select data-testid="intake-bind-revision" value={revisionId} onChange={(x) => setRevisionId(x.target.value)}>
          <option value="">choose a revision…</option>
          {evidence.map((r) => (
            <option key={r.revisionId} value={r.revisionId}>
              {r.revisionId} ({r.state}): {r.title.slice(0, 60)}
            </option>
          ))}
        </select>
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
        {claim && (
          <span className="muted" data-testid="intake-bind-status">
            {' '}
            {claim.claimId} is now {claim.status}
          </span>
        )}
        <Outcome error={bind.error} testId="intake-bind" done={bind.result && `${bind.result.revisionId} bound to ${bind.result.claimId} as ${bind.result.relation}/${bind.result.role}.`} />
      </div>
    </form>
  );
}
