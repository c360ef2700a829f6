import { useState } from 'react';
import { call } from '../../bridge';
import { RevisionPick } from '../../components/SearchPick';
import type { QuotedSpan } from './EvidenceForm';
import { Field, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/**
 * Corrects evidence: a new revision of the same lineage that supersedes the one chosen, with the
 * reason for the correction (the old revision stays, SUPERSEDED, with its history). The corrected
 * text is typed, or quoted from a source document (a span: its hash is checked on arrival).
 */
export function ReviseForm({ span, onSpanUsed }: { span: QuotedSpan | null; onSpanUsed: () => void }) {
  const revise = useChannelAction('evidence:revise');
  const [supersedes, setSupersedes] = useState('');
  const [content, setContent] = useState('');
  const [reason, setReason] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const e = revise.error;
  const text = span ? span.quote : content;
  // The text of the revision named, to correct from (a name that is no revision just loads nothing).
  const [loaded, setLoaded] = useState('');
  const load = async () => {
    const revisionId = supersedes.trim();
    setLoadError(null);
    try {
      setContent((await call('evidence:get', { revisionId })).content);
      setLoaded(revisionId);
    } catch (err) {
      setLoadError((err as Error).message);
    }
  };
  return (
    <form
      className="grid-form"
      data-testid="intake-revise"
      onSubmit={(ev) => {
        ev.preventDefault();
        void revise.submit({ supersedes: supersedes.trim(), content: text, reason, ...(span ? { span } : {}) }, () => {
          setReason('');
          setSupersedes('');
          setLoaded('');
          setContent('');
          if (span) onSpanUsed();
        });
      }}
    >
      <Field label="Revision to correct" path={['supersedes']} error={e} wide testId="intake-revise-of">
        <span className="row">
          <RevisionPick testId="intake-revise-of" label="Revision to correct" value={supersedes} onChange={setSupersedes} />
          <button type="button" className="secondary" data-testid="intake-revise-load" disabled={supersedes.trim() === '' || loaded === supersedes.trim()} onClick={() => void load()}>
            Load its text
          </button>
        </span>
        {loadError && <span className="error">{loadError}</span>}
      </Field>
      <Field label={span ? `Corrected text quoted from ${span.sourceId} [${span.start}, ${span.end})` : 'Corrected content'} path={['content']} error={e} wide testId="intake-revise-content">
        <textarea data-testid="intake-revise-content" className="mono" rows={4} value={text} readOnly={span !== null} onChange={(x) => setContent(x.target.value)} />
      </Field>
      <Field label="Why it is corrected" path={['reason']} error={e} wide testId="intake-revise-reason">
        <input data-testid="intake-revise-reason" value={reason} placeholder="the exporter truncated the command line; re-exported in full" onChange={(x) => setReason(x.target.value)} />
      </Field>
      <div className="wide">
        <button type="submit" data-testid="intake-revise-submit" disabled={revise.busy || supersedes.trim() === ''}>
          Record the correction
        </button>
        <Outcome
          error={revise.error}
          testId="intake-revise"
          done={revise.result && `${revise.result.revisionId} recorded (${revise.result.state}); it supersedes the revision it corrects.`}
        />
      </div>
    </form>
  );
}
