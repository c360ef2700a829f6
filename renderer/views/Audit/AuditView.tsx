import { useShallow } from 'zustand/react/shallow';
import { useWorkbench } from '../../state/store';

export function AuditView() {
  const { chain, receipts, auditError, loadAudit } = useWorkbench(
    useShallow((s) => ({ chain: s.chain, receipts: s.receipts, auditError: s.auditError, loadAudit: s.loadAudit })),
  );
  return (
    <div className="stack">
      <section className="panel">
        <div className="row spread">
          <h1>Audit chain</h1>
          <button type="button" data-testid="audit-verify" onClick={() => void loadAudit()}>
            Verify again
          </button>
        </div>
        {auditError && <p className="error" role="alert">{auditError}</p>}
        {chain && (
          <p data-testid="audit-status" className={chain.ok ? 'ok' : 'bad'}>
            {chain.ok
              ? `Verified: ${chain.length} receipts, head ${chain.head ?? '(empty)'}`
              : `Broken at seq ${chain.firstBroken?.seq}: ${chain.firstBroken?.reason}`}
          </p>
        )}
      </section>
      <section className="panel">
        <table className="table" data-testid="receipts">
          <thead>
            <tr>
              <th>seq</th>
              <th>at</th>
              <th>actor</th>
              <th>action</th>
              <th>targets</th>
              <th>hash</th>
            </tr>
          </thead>
          <tbody>
            {receipts.map((r) => (
              <tr key={r.seq}>
                <td>{r.seq}</td>
                <td className="mono">{r.at}</td>
                <td>{r.actor}</td>
                <td>{r.action}</td>
                <td className="mono">{r.targets.join(', ')}</td>
                <td className="mono" title={r.hash}>{r.hash.slice(0, 16)}…</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
