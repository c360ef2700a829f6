import { Fragment, useState } from 'react';
import type { ActorKeyView, ReceiptView } from '../../../shared/ipc/channels/audit';
import { Fingerprint } from '../../components/Fingerprint';
import { formatTime, shortHash } from '../../components/format';
import { isWithheld, signerOf } from './receipts';

function StateCell({ r }: { r: ReceiptView }) {
  if (!r.preStateFp && !r.postStateFp) return <span className="muted">—</span>;
  return (
    <span className="mono nowrap" title={`pre ${r.preStateFp ?? 'none'}\npost ${r.postStateFp ?? 'none'}`}>
      {r.preStateFp ? shortHash(r.preStateFp, 8) : '∅'} → {r.postStateFp ? shortHash(r.postStateFp, 8) : '∅'}
    </span>
  );
}

function ReceiptDetail({ r }: { r: ReceiptView }) {
  return (
    <div className="receipt-detail" data-testid={`receipt-detail-${r.seq}`}>
      <dl className="facts">
        <dt>hash</dt>
        <dd>
          <Fingerprint value={r.hash} testId={`receipt-hash-${r.seq}`} length={64} />
        </dd>
        <dt>prev hash</dt>
        <dd className="mono">{r.prevHash}</dd>
        <dt>pre state</dt>
        <dd className="mono">{r.preStateFp ?? '—'}</dd>
        <dt>post state</dt>
        <dd className="mono">{r.postStateFp ?? '—'}</dd>
        {Object.entries(r.artifacts).map(([name, digest]) => (
          <Fragment key={name}>
            <dt>artifact {name}</dt>
            <dd className="mono">{digest}</dd>
          </Fragment>
        ))}
        <dt>signature</dt>
        <dd className="mono wrap">{r.signature ?? (r.signer ? 'signed by the next signature of the same key (an import signs its run once, at its end)' : 'unsigned (older than signatures)')}</dd>
      </dl>
      {/* The body is data: shown as JSON text, never interpreted. */}
      <pre className="evidence-text receipt-body">{JSON.stringify(r.body, null, 2)}</pre>
    </div>
  );
}

/** The receipts, newest first: who did what, the state fingerprints and digests, and who signed it. */
export function ReceiptTable({ receipts, keys }: { receipts: readonly ReceiptView[]; keys: readonly ActorKeyView[] }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <table className="table dense receipts" data-testid="receipts">
      <thead>
        <tr>
          <th>seq</th>
          <th>at (UTC)</th>
          <th>actor · action</th>
          <th>targets</th>
          <th>state pre → post</th>
          <th>artifacts</th>
          <th>signed by</th>
          <th>hash</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {receipts.map((r) => {
          const withheld = isWithheld(r);
          const signer = signerOf(r, keys);
          return (
            <Fragment key={r.seq}>
              <tr data-testid={`receipt-${r.seq}`} data-withheld={String(withheld)} className={withheld ? 'withheld' : ''}>
                <td>{r.seq}</td>
                <td className="mono nowrap">{formatTime(r.at)}</td>
                <td>
                  <b>{r.actor}</b>
                  <div className="mono small">{r.action}</div>
                </td>
                <td className="mono targets">
                  {withheld ? (
                    <span className="badge withheld-badge" data-testid={`receipt-withheld-${r.seq}`} title="this receipt concerns evidence or a claim outside your clearance">
                      WITHHELD
                    </span>
                  ) : (
                    r.targets.join(', ')
                  )}
                </td>
                <td>
                  <StateCell r={r} />
                </td>
                <td className="mono small">
                  {Object.keys(r.artifacts).length === 0
                    ? '—'
                    : Object.entries(r.artifacts).map(([name, digest]) => (
                        <div key={name} title={digest}>
                          {name} {shortHash(digest, 8)}
                        </div>
                      ))}
                </td>
                <td className="small" data-testid={`receipt-signer-${r.seq}`}>
                  {signer ? (
                    <>
                      <span className={signer.mismatch ? 'bad' : ''}>{signer.actorId ?? 'unknown key'}</span>
                      <div className="mono muted" title={`${signer.keyId}\n${r.signature ?? ''}`}>
                        {r.signature === null ? 'signed at run end' : `sig ${shortHash(r.signature, 10)}`}
                      </div>
                    </>
                  ) : (
                    <span className="muted">unsigned</span>
                  )}
                </td>
                <td className="mono" title={r.hash}>
                  {shortHash(r.hash, 10)}
                </td>
                <td>
                  <button
                    type="button"
                    className="link small"
                    aria-expanded={open === r.seq}
                    data-testid={`receipt-expand-${r.seq}`}
                    onClick={() => setOpen(open === r.seq ? null : r.seq)}
                  >
                    {open === r.seq ? 'hide' : 'details'}
                  </button>
                </td>
              </tr>
              {open === r.seq && (
                <tr className="receipt-detail-row">
                  <td colSpan={9}>
                    <ReceiptDetail r={r} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
