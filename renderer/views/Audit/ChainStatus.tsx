import { useState } from 'react';
import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CopyButton } from '../../components/Fingerprint';
import type { AuditSlice, SignatureMode } from '../../state/types';
import { BROKEN_KIND_EXPLAINED, headCheckSummary } from './receipts';

const MODE_LABEL: Record<SignatureMode, string> = {
  every: 'every receipt',
  'run-ends': 'last receipt of each signer’s run',
};

/** Chain status as the last audit:verify answered it: hash chain, signatures, state fingerprints. */
export function ChainStatus({ chain }: { chain: ChainVerification }) {
  const b = chain.firstBroken;
  return (
    <>
      <div className={`chain-banner ${chain.ok ? 'chain-ok' : 'chain-broken'}`} data-testid="audit-status" data-ok={String(chain.ok)}>
        {chain.ok ? (
          <>
            <b>Verified</b>: {chain.length} receipts, hash chain intact, {chain.signatures.verified} Ed25519 signatures checked (
            {MODE_LABEL[chain.signatures.mode]}), {chain.fingerprints.checked} state fingerprints and digests recomputed and matched.{' '}
            <span data-testid="audit-scope">
              {chain.routine
                ? `Routine: ${chain.length > chain.routine.since ? `receipts ${chain.routine.since + 1}–${chain.length} were checked` : 'nothing was added'} since this machine verified the chain through seq ${chain.routine.since}${chain.routine.markedAt ? ` (${chain.routine.markedAt})` : ''}; rows written before that were not re-read. "Full verification" re-reads everything.`
                : 'Full: the whole chain and every row were checked.'}
            </span>
          </>
        ) : (
          <>
            <b>BROKEN at seq {b?.seq}</b> ({b?.kind}): {b?.reason}. The first {chain.length} receipts verify.
          </>
        )}
      </div>
      <div className="counts-row">
        <div className="count-box" data-testid="audit-count-receipts">
          <span className="muted small">Receipts verified</span>
          <b>{chain.length}</b>
        </div>
        <div className="count-box" data-testid="audit-count-signatures">
          <span className="muted small">Signatures verified</span>
          <b>{chain.signatures.verified}</b>
          <span className="muted small">mode: {chain.signatures.mode}</span>
        </div>
        <div className="count-box" data-testid="audit-count-checked">
          <span className="muted small">Fingerprints checked</span>
          <b>{chain.fingerprints.checked}</b>
        </div>
        <div className={`count-box${chain.fingerprints.unchecked > 0 ? ' warn-box' : ''}`} data-testid="audit-count-unchecked">
          <span className="muted small">Unchecked (reported, not trusted)</span>
          <b>{chain.fingerprints.unchecked}</b>
        </div>
        <div className="count-box grow" data-testid="audit-root-key">
          <span className="muted small">Root key (signed seq 1): compare it out of band</span>
          <code>{chain.rootKey ?? '—'}</code>
        </div>
      </div>
      {b && (
        <dl className="facts broken" data-testid="audit-broken">
          <dt>First broken seq</dt>
          <dd data-testid="audit-broken-seq">{b.seq}</dd>
          <dt>Kind</dt>
          <dd data-testid="audit-broken-kind">
            <b>{b.kind}</b> <span className="muted">: {BROKEN_KIND_EXPLAINED[b.kind]}</span>
          </dd>
          <dt>Reason</dt>
          <dd data-testid="audit-broken-reason">{b.reason}</dd>
        </dl>
      )}
    </>
  );
}

/** The head to paste into a ticket, and a check of the chain against a head printed earlier. */
export function ChainHeadPanel({
  head,
  headCheck,
  onVerify,
}: {
  head: string | null;
  headCheck: AuditSlice['headCheck'];
  onVerify: (expectedHead: string) => Promise<void>;
}) {
  const [expected, setExpected] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <section className="panel" data-testid="audit-head-panel">
      <h2>Chain head</h2>
      <p className="muted small">
        Paste it into the ticket or the report. Verifying against it later shows whether anything up to it was truncated or rewritten.
      </p>
      <div className="head-line">
        <code data-testid="audit-head">{head ?? '—'}</code>
        {head && <CopyButton value={head} testId="audit-head-copy" label="Copy head" />}
      </div>
      <form
        className="row head-form"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void onVerify(expected).finally(() => setBusy(false));
        }}
      >
        <input
          className="grow mono"
          data-testid="audit-expected-head"
          aria-label="Expected head"
          placeholder="erwb-head:<seq>:<64 hex digits> printed earlier"
          value={expected}
          onChange={(e) => setExpected(e.target.value)}
        />
        <button type="submit" data-testid="audit-verify-head" disabled={busy}>
          Verify against this head
        </button>
      </form>
      {headCheck && 'result' in headCheck && (
        <p className={headCheck.result.ok ? 'ok' : 'bad'} data-testid="audit-head-result" data-ok={String(headCheck.result.ok)}>
          {headCheckSummary(headCheck.expectedHead, headCheck.result)}
        </p>
      )}
      {headCheck && 'error' in headCheck && <ErrorNotice error={headCheck.error} testId="audit-head-error" />}
    </section>
  );
}
