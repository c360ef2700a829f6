import { useState } from 'react';
import { call } from '../../bridge';
import { useWorkbench } from '../../state/store';
import type { QuotedSpan } from './EvidenceForm';
import { Field, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/**
 * Corrects evidence: a new revision of the same lineage that supersedes the one chosen, with the
 * reason for the correction (the old revision stays, SUPERSEDED, with its history). The corrected
 * text is typed, or quoted from a source document (a span: its hash is checked on arrival).
 */
export function ReviseForm({ span, onSpanUsed }: { span: QuotedSpan | null; onSpanUsed: () => void }) {
  const evidence = useWorkbench((s) => s.evidence);
  const revise = useChannelAction('evidence:revise');
  const [supersedes, setSupersedes] = useState('');
  const [content, setContent] = useState('');
  const [reason, setReason] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const e = revise.error;
  // Only a lineage's current revision can be corrected; superseded ones already were.
  const current = evidence.filter((r) => r.state !== 'SUPERSEDED');
  const text = span ? span.quote : content;
  const choose = async (revisionId: string) => {
    setSupersedes(revisionId);
    setLoadError(null);
    if (!revisionId) return;
    try {
      setContent((await call('evidence:get', { revisionId })).content);
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
        void revise.submit({ supersedes, content: text, reason, ...(span ? { span } : {}) }, () => {
          setReason('');
          setSupersedes('');
          setContent('');
          if (span) onSpanUsed();
        });
      }}
    >
      <Field label="Revision to correct" path={['supersedes']} error={e} wide testId="intake-revise-of">
        <select data-testid="intake-revise-of" value={supersedes} onChange={(x) => void choose(x.target.value)}>
          <option value="">choose a revision…</option>
          {current.map((r) => (
            <option key={r.revisionId} value={r.revisionId}>
              {r.revisionId} ({r.state}): {r.title.slice(0, 70)}
            </option>
          ))}
        </select>
        {loadError && <span className="error">{loadError}</span>}
      </Field>
      <Field label={span ? `Corrected text quoted from ${span.sourceId} [${span.start}, ${span.end})` : 'Corrected content'} path={['content']} error={e} wide testId="intake-revise-content">
        <textarea data-testid="intake-revise-content" className="mono" rows={4} value={text} readOnly={span !== null} onChange={(x) => setContent(x.target.value)} />
      </Field>
      <Field label="Why it is corrected" path={['reason']} error={e} wide testId="intake-revise-reason">
        <input data-testid="intake-revise-reason" value={reason} placeholder="the exporter truncated the command line; re-exported in full" onChange={(x) => setReason(x.target.value)} />
      </Field>
      <div className="wide">
        <button type="submit" data-testid="intake-revise-submit" disabled={revise.busy || supersedes === ''}>
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
