import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SignatureMode } from '../../state/types';
import { selectAuditActions, selectAuditView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { ActorKeys } from './ActorKeys';
import { ChainHeadPanel, ChainStatus } from './ChainStatus';
import { ReceiptTable } from './ReceiptTable';
import { isWithheld } from './receipts';
import './audit.css';

/** The receipted audit chain (DESIGN §3.7): status, head, receipts and the keys that signed them. */
export function AuditView() {
  const { chain, chainHead, receipts, moreReceipts, actorKeys, signatureMode, headCheck, auditError } = useWorkbench(useShallow(selectAuditView));
  const { loadAudit, verifyFully, loadOlderReceipts, setSignatureMode, verifyAgainstHead } = useWorkbench(useShallow(selectAuditActions));
  const withheld = receipts.filter(isWithheld).length;
  // Opening the view verifies afresh: another window or the CLI may have appended since the last check.
  useEffect(() => {
    void loadAudit();
  }, [loadAudit]);
  return (
    <div className="stack">
      <section className="panel" data-testid="audit-chain">
        <div className="row spread">
          <h1>Audit chain</h1>
          <div className="row">
            <label className="field inline small">
              Check signatures on
              <select data-testid="audit-signature-mode" value={signatureMode} onChange={(e) => {
                  setSignatureMode(e.target.value as SignatureMode);
                  void loadAudit();
                }}>
                <option value="every">every receipt</option>
                <option value="run-ends">the last receipt of each signer’s run</option>
              </select>
            </label>
            <button type="button" data-testid="audit-verify" onClick={() => void loadAudit()}>
              Verify again
            </button>
            <button type="button" data-testid="audit-verify-full" onClick={() => void verifyFully()}>
              Full verification
            </button>
          </div>
        </div>
        {auditError && (
          <p className="error" role="alert" data-testid="audit-error">
            {auditError}
          </p>
        )}
        {chain ? <ChainStatus chain={chain} /> : !auditError && <p className="muted">Verifying…</p>}
      </section>
      <ChainHeadPanel head={chainHead} headCheck={headCheck} onVerify={verifyAgainstHead} />
      <section className="panel">
        <h2>Reviewer keys</h2>
        <ActorKeys keys={actorKeys} rootKey={chain?.rootKey ?? null} receipts={receipts} />
      </section>
      <section className="panel">
        <div className="row spread">
          <h2>Receipts</h2>
          <span className="muted small" data-testid="receipts-count">
            {receipts.length} listed, newest first
            {withheld > 0 && ` · ${withheld} withheld: they concern evidence or claims outside your clearance`}
          </span>
        </div>
        <ReceiptTable receipts={receipts} keys={actorKeys} />
        {moreReceipts && (
          <button type="button" className="secondary" data-testid="receipts-older" onClick={() => void loadOlderReceipts()}>
            Load older receipts
          </button>
        )}
      </section>
    </div>
  );
}
