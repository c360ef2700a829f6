import { EnumSelect } from '../../components/EnumSelect';
import { useRef, useState } from 'react';
import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import type { QuotedSpan } from './EvidenceForm';
import { Field, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/**
 * Stores a source document (a report, an e-mail, a log export) and lets the analyst select a
 * passage of it as evidence: the span's offsets and quote go with the evidence, and the case
 * re-checks them against the stored text (a quote that does not match quarantines).
 */
export function SourceForm({ defaults, onQuote }: { defaults: { tenant: string; classification: Classification }; onQuote: (span: QuotedSpan, as: 'evidence' | 'correction') => void }) {
  const add = useChannelAction('source:add');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [tenant, setTenant] = useState(defaults.tenant);
  const [classification, setClassification] = useState<Classification>(defaults.classification);
  const [stored, setStored] = useState<{ sourceId: string; content: string } | null>(null);
  const [selection, setSelection] = useState<{ start: number; end: number } | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const readSelection = () => {
    const t = textRef.current;
    if (t && t.selectionEnd > t.selectionStart) setSelection({ start: t.selectionStart, end: t.selectionEnd });
  };
  /** The selected passage, quoted with its offsets, for new evidence or for a correction. */
  const quote = (as: 'evidence' | 'correction') => {
    if (stored && selection) onQuote({ sourceId: stored.sourceId, start: selection.start, end: selection.end, quote: stored.content.slice(selection.start, selection.end) }, as);
  };
  const e = add.error;
  return (
    <div className="stack">
      <form
        className="grid-form"
        data-testid="intake-source"
        onSubmit={(ev) => {
          ev.preventDefault();
          void add.submit({ title, content, tenant, classification }, (done) => setStored({ sourceId: done.sourceId, content }));
        }}
      >
        <Field label="Title" path={['title']} error={e} testId="intake-source-title">
          <input data-testid="intake-source-title" value={title} onChange={(x) => setTitle(x.target.value)} />
        </Field>
        <Field label="Tenant" path={['tenant']} error={e} testId="intake-source-tenant">
          <input value={tenant} onChange={(x) => setTenant(x.target.value)} />
        </Field>
        <Field label="Classification" path={['classification']} error={e} testId="intake-source-classification">
          <EnumSelect values={CLASSIFICATIONS} value={classification} onChange={setClassification} />
        </Field>
        <Field label="Text of the document (paste, or drop a file)" path={['content']} error={e} wide testId="intake-source-content">
          <textarea
            data-testid="intake-source-content"
            className="mono"
            rows={5}
            value={content}
            onChange={(x) => setContent(x.target.value)}
            onDragOver={(x) => x.preventDefault()}
            onDrop={(x) => {
              x.preventDefault();
              const file = x.dataTransfer.files[0];
              if (file) void file.text().then((t) => {
                setContent(t);
                if (!title) setTitle(file.name);
              });
            }}
          />
        </Field>
        <div className="wide">
          <button type="submit" data-testid="intake-source-submit" disabled={add.busy}>
            Store source document
          </button>
          <Outcome error={add.error} testId="intake-source" done={add.result && `${add.result.sourceId} ${add.result.created ? 'stored' : 'was already stored (same text, same compartment)'}.`} />
        </div>
      </form>
      {stored && (
        <div className="stack" data-testid="intake-source-stored">
          <p className="muted">
            Select the passage that is your evidence in <span className="mono">{stored.sourceId}</span>, then quote it:
          </p>
          <textarea
            ref={textRef}
            data-testid="intake-source-text"
            className="mono"
            rows={6}
            readOnly
            value={stored.content}
            onSelect={readSelection}
            onMouseUp={readSelection}
            onKeyUp={readSelection}
          />
          <div className="row">
            <button
              type="button"
              data-testid="intake-source-quote"
              disabled={!selection}
              onClick={() => quote('evidence')}
            >
              Quote selection as evidence
            </button>
            <button
              type="button"
              data-testid="intake-source-quote-correction"
              disabled={!selection}
              onClick={() => quote('correction')}
            >
              Quote as a correction
            </button>
            {selection && (
              <span className="muted mono" data-testid="intake-source-selection">
                [{selection.start}, {selection.end}) {selection.end - selection.start} characters
              </span>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
