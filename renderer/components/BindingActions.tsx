import { useState } from 'react';
import { BINDING_ROLES, RELATIONS, type BindingRole, type Relation } from '../../shared/domain/enums';
import { EnumSelect } from './EnumSelect';
import { ErrorNotice } from './ErrorNotice';
import { ClaimPick } from './SearchPick';
import { useChannelAction } from './useChannelAction';

/**
 * Binding from the graph: an evidence revision dragged onto a claim asks for the relation, role
 * and rationale, then binds through claim:bind like the Intake form (the status follows the rule).
 */
export function BindDialog({ claimId, revisionId, onClose }: { claimId: string; revisionId: string; onClose: () => void }) {
  const action = useChannelAction('claim:bind');
  const [relation, setRelation] = useState<Relation>('FULL_SUPPORT');
  const [role, setRole] = useState<BindingRole>('SUPPORTING');
  const [rationale, setRationale] = useState('');
  const bind = () => action.submit({ claimId, revisionId, relation, role, rationale }, onClose);
  return (
    <div className="modal-backdrop">
      <section className="panel modal" role="dialog" aria-modal="true" aria-labelledby="bind-title" data-testid="graph-bind-dialog" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2 id="bind-title">
          Bind <span className="mono">{revisionId}</span> to <span className="mono">{claimId}</span>
        </h2>
        <div className="grid-form">
          <label className="field">
            Relation
            <EnumSelect values={RELATIONS} value={relation} onChange={setRelation} testId="graph-bind-relation" />
          </label>
          <label className="field">
            Role
            <EnumSelect values={BINDING_ROLES} value={role} onChange={setRole} testId="graph-bind-role" />
          </label>
          <label className="field wide">
            Rationale (optional)
            <input data-testid="graph-bind-rationale" value={rationale} onChange={(e) => setRationale(e.target.value)} />
          </label>
        </div>
        {action.error && <ErrorNotice error={action.error} testId="graph-bind-error" />}
        <div className="row">
          <button type="button" data-testid="graph-bind-submit" disabled={action.busy} onClick={() => void bind()}>
            Bind
          </button>
          <button type="button" className="secondary" data-testid="graph-bind-cancel" onClick={onClose}>
            Cancel
          </button>
        </div>
      </section>
    </div>
  );
}

/**
 * Unbinding from a claim's detail: asks why (the reason is receipted), then claim:unbind moves the
 * claim to a new generation without the revision; decisions on the old one go stale.
 */
export function UnbindButton({ claimId, revisionId, testId }: { claimId: string; revisionId: string; testId: string }) {
  const action = useChannelAction('claim:unbind');
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  if (!asking) {
    return (
      <button type="button" className="link small" data-testid={testId} onClick={() => setAsking(true)}>
        Unbind…
      </button>
    );
  }
  const unbind = () => action.submit({ claimId, revisionId, reason });
  return (
    <div className="confirm-step" role="alertdialog" aria-label={`Unbind ${revisionId}`} data-testid={`${testId}-confirm-step`}>
      <p className="small">
        {claimId} moves to a new generation without {revisionId}; its status is derived again, and a decision taken on the current bindings goes stale.
      </p>
      <input data-testid={`${testId}-reason`} className="grow" placeholder="why it no longer belongs to this claim" value={reason} onChange={(e) => setReason(e.target.value)} />
      {action.error && <ErrorNotice error={action.error} testId={`${testId}-error`} />}
      <div className="row">
        <button type="button" data-testid={`${testId}-confirm`} disabled={action.busy} onClick={() => void unbind()}>
          Unbind
        </button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * Binding from the evidence's side: a claim chosen by id or statement (type to filter), with the
 * relation and role, through claim:bind like everywhere else.
 */
export function BindToClaim({ revisionId, testId }: { revisionId: string; testId: string }) {
  const action = useChannelAction('claim:bind');
  const [claimId, setClaimId] = useState('');
  const [relation, setRelation] = useState<Relation>('FULL_SUPPORT');
  const [role, setRole] = useState<BindingRole>('SUPPORTING');
  const bind = () => action.submit({ claimId: claimId.trim(), revisionId, relation, role }, () => setClaimId(''));
  return (
    <div className="row wrap" data-testid={testId}>
      <ClaimPick testId={`${testId}-claim`} label="Claim to bind to" value={claimId} onChange={setClaimId} />
      <EnumSelect values={RELATIONS} value={relation} onChange={setRelation} testId={`${testId}-relation`} />
      <EnumSelect values={BINDING_ROLES} value={role} onChange={setRole} testId={`${testId}-role`} />
      <button type="button" data-testid={`${testId}-submit`} disabled={action.busy || claimId.trim() === ''} onClick={() => void bind()}>
        Bind to claim
      </button>
      {action.error && <ErrorNotice error={action.error} testId={`${testId}-error`} />}
    </div>
  );
}
