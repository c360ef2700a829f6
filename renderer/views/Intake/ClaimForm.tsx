import { EnumSelect } from '../../components/EnumSelect';
import { useState } from 'react';
import { CLASSIFICATIONS, EVIDENCE_KINDS, type Classification, type EvidenceKind } from '../../../shared/domain/enums';
import { Field, list, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/** A claim and the policy its status is derived under: how many independent sources, which kinds, what quorum. */
export function ClaimForm({ defaults }: { defaults: { tenant: string; classification: Classification } }) {
  const create = useChannelAction('claim:create');
  const [claimId, setClaimId] = useState('');
  const [statement, setStatement] = useState('');
  const [scope, setScope] = useState('');
  const [minIndependentSources, setMin] = useState('1');
  const [requiredKinds, setRequiredKinds] = useState<EvidenceKind[]>([]);
  const [quorum, setQuorum] = useState('');
  const [tenant, setTenant] = useState(defaults.tenant);
  const [classification, setClassification] = useState<Classification>(defaults.classification);
  const e = create.error;
  return (
    <form
      className="grid-form"
      data-testid="intake-claim"
      onSubmit={(ev) => {
        ev.preventDefault();
        void create
          .submit({
            ...(claimId.trim() ? { claimId: claimId.trim() } : {}),
            statement,
            scope: list(scope),
            policy: { minIndependentSources: Number(minIndependentSources), requiredKinds, quorumSize: quorum.trim() === '' ? null : Number(quorum) },
            tenant,
            classification,
          }, () => {
            setStatement('');
            setClaimId('');
          });
      }}
    >
      <Field label="Statement" path={['statement']} error={e} wide testId="intake-claim-statement">
        <textarea data-testid="intake-claim-statement" rows={2} value={statement} onChange={(x) => setStatement(x.target.value)} />
      </Field>
      <Field label="Claim id (optional)" path={['claimId']} error={e} testId="intake-claim-id">
        <input data-testid="intake-claim-id" className="mono" placeholder="cl-fs02-encrypt" value={claimId} onChange={(x) => setClaimId(x.target.value)} />
      </Field>
      <Field label="Scope (hosts, accounts; comma-separated)" path={['scope']} error={e} testId="intake-claim-scope">
        <input className="mono" value={scope} onChange={(x) => setScope(x.target.value)} />
      </Field>
      <Field label="Independent sources needed" path={['policy', 'minIndependentSources']} error={e} testId="intake-claim-min">
        <input data-testid="intake-claim-min" inputMode="numeric" value={minIndependentSources} onChange={(x) => setMin(x.target.value)} />
      </Field>
      <Field label="Reviewer quorum (optional)" path={['policy', 'quorumSize']} error={e} testId="intake-claim-quorum">
        <input inputMode="numeric" value={quorum} onChange={(x) => setQuorum(x.target.value)} />
      </Field>
      <Field label="Kinds of evidence required" path={['policy', 'requiredKinds']} error={e} wide testId="intake-claim-kinds">
        <div className="row wrap">
          {EVIDENCE_KINDS.map((k) => (
            <label key={k} className="field inline">
              <input
                type="checkbox"
                checked={requiredKinds.includes(k)}
                onChange={(x) => setRequiredKinds(x.target.checked ? [...requiredKinds, k] : requiredKinds.filter((r) => r !== k))}
              />
              {k}
            </label>
          ))}
        </div>
      </Field>
      <Field label="Tenant" path={['tenant']} error={e} testId="intake-claim-tenant">
        <input value={tenant} onChange={(x) => setTenant(x.target.value)} />
      </Field>
      <Field label="Classification" path={['classification']} error={e} testId="intake-claim-classification">
        <EnumSelect values={CLASSIFICATIONS} value={classification} onChange={setClassification} />
      </Field>
      <div className="wide">
        <button type="submit" data-testid="intake-claim-submit" disabled={create.busy}>
          Create claim
        </button>
        <Outcome error={create.error} testId="intake-claim" done={create.result && `${create.result.claimId} created: ${create.result.status}.`} />
      </div>
    </form>
  );
}
