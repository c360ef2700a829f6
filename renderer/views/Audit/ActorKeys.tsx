import type { ActorKeyView, ReceiptView } from '../../../shared/ipc/channels/audit';
import { CopyButton } from '../../components/Fingerprint';
import { formatTime } from '../../components/format';
import { signedCounts } from './receipts';

/** Reviewer public keys: what a verifier on another machine checks the signatures against. */
export function ActorKeys({ keys, rootKey, receipts }: { keys: readonly ActorKeyView[]; rootKey: string | null; receipts: readonly ReceiptView[] }) {
  const counts = signedCounts(receipts);
  return (
    <table className="table dense" data-testid="audit-keys">
      <thead>
        <tr>
          <th>actor</th>
          <th>key id</th>
          <th>public key (SPKI, base64)</th>
          <th>registered</th>
          <th>retired</th>
          <th>receipts listed</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k.keyId} data-testid={`audit-key-${k.actorId}`} className={k.retiredAt ? 'historical' : ''}>
            <td>
              <b>{k.actorId}</b> {k.keyId === rootKey && <span className="tag" title="signed seq 1: pin it out of band">root</span>}
            </td>
            <td className="mono">{k.keyId}</td>
            <td>
              <span className="fingerprint">
                {/* Every Ed25519 SPKI starts with the same header: the tail is what tells keys apart. */}
                <code title={k.publicKey}>…{k.publicKey.slice(-20)}</code>
                <CopyButton value={k.publicKey} testId={`audit-key-copy-${k.keyId}`} />
              </span>
            </td>
            <td className="mono nowrap">{formatTime(k.registeredAt)}</td>
            <td className="mono nowrap">{k.retiredAt ? formatTime(k.retiredAt) : '—'}</td>
            <td>{counts.get(k.keyId) ?? 0}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
