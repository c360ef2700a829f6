import { useEffect, useRef, useState } from 'react';
import type { EvidenceDetail } from '../../shared/ipc/channels/evidence';
import { call } from '../bridge';
import { messageOf } from '../state/actionError';
import { ErrorNotice } from './ErrorNotice';
import { useChannelAction } from './useChannelAction';

interface InputRow {
  name: string;
  revisionId: string;
  quote: string;
  start: number | null;
  unit: string;
}

const emptyRow = (revisionId: string): InputRow => ({ name: '', revisionId, quote: '', start: null, unit: '' });

/**
 * Records a computation on a claim: a question, an expression and its inputs, each picked from
 * the text of evidence bound to the claim (select the number in the evidence shown, then "Use
 * selection"), so the span proves where it came from. The service parses and computes; its
 * refusal names the field.
 */
export function ComputationForm({ claimId, revisionIds, testId, onDone }: { claimId: string; revisionIds: readonly string[]; testId: string; onDone: () => void }) {
  const action = useChannelAction('computation:create');
  const [question, setQuestion] = useState('');
  const [expression, setExpression] = useState('');
  const [rows, setRows] = useState<InputRow[]>([emptyRow(revisionIds[0] ?? '')]);
  const [picking, setPicking] = useState(0);
  const set = (i: number, change: Partial<InputRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));

  return (
    <form
      className="transition-form stack"
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        void action.submit(
          {
            claimId,
            question,
            expression,
            inputs: rows.map((r) => ({ name: r.name, revisionId: r.revisionId, quote: r.quote, ...(r.start !== null ? { start: r.start } : {}), ...(r.unit ? { unit: r.unit } : {}) })),
          },
          () => {
            setQuestion('');
            setExpression('');
            setRows([emptyRow(revisionIds[0] ?? '')]);
            onDone();
          },
        );
      }}
    >
      <label className="field">
        Question it answers
        <input data-testid={`${testId}-question`} value={question} placeholder="e.g. batches needed to send the export" onChange={(e) => setQuestion(e.target.value)} />
      </label>
      <label className="field">
        Expression
        <input
          data-testid={`${testId}-expression`}
          className="mono"
          value={expression}
          placeholder="e.g. ceil(records / batch_size), until - from, sent in MB"
          onChange={(e) => setExpression(e.target.value)}
        />
      </label>
      <fieldset className="stack">
        <legend className="small">Inputs (each quoted from evidence bound to the claim)</legend>
        {rows.map((r, i) => (
          <div key={i} className="row wrap" data-testid={`${testId}-input-${i}`}>
            <input aria-label={`Input ${i + 1} name`} data-testid={`${testId}-input-${i}-name`} className="mono" placeholder="name" value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
            <select aria-label={`Input ${i + 1} evidence`} data-testid={`${testId}-input-${i}-revision`} value={r.revisionId} onChange={(e) => set(i, { revisionId: e.target.value, quote: '', start: null })}>
              {revisionIds.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
            <input aria-label={`Input ${i + 1} quote`} data-testid={`${testId}-input-${i}-quote`} placeholder="quoted text, e.g. 12,400" value={r.quote} onChange={(e) => set(i, { quote: e.target.value, start: null })} />
            <input aria-label={`Input ${i + 1} unit`} size={6} placeholder="unit" value={r.unit} onChange={(e) => set(i, { unit: e.target.value })} />
            <button type="button" className="secondary small" aria-pressed={picking === i} onClick={() => setPicking(i)}>
              Pick from text
            </button>
            {rows.length > 1 && (
              <button type="button" className="link small" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                Remove
              </button>
            )}
          </div>
        ))}
        <div className="row">
          <button type="button" className="secondary small" data-testid={`${testId}-add-input`} onClick={() => setRows([...rows, emptyRow(revisionIds[0] ?? '')])}>
            Add input
          </button>
        </div>
      </fieldset>
      {rows[picking] && <EvidenceText revisionId={rows[picking].revisionId} testId={`${testId}-text`} onPick={(quote, start) => set(picking, { quote, start })} />}
      <div className="row">
        <button type="submit" data-testid={`${testId}-submit`} disabled={action.busy}>
          Record computation
        </button>
      </div>
      {action.error && <ErrorNotice error={action.error} testId={`${testId}-error`} />}
    </form>
  );
}

/** The revision's content as inert text; a selection in it becomes the input's quote and start. */
function EvidenceText({ revisionId, testId, onPick }: { revisionId: string; testId: string; onPick: (quote: string, start: number) => void }) {
  const [detail, setDetail] = useState<EvidenceDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    let current = true;
    setDetail(null);
    if (!revisionId) return;
    call('evidence:get', { revisionId }).then(
      (d) => current && (setDetail(d), setError(null)),
      (err: unknown) => current && setError(messageOf(err)),
    );
    return () => {
      current = false;
    };
  }, [revisionId]);
  const useSelection = () => {
    const selection = window.getSelection();
    const text = pre.current?.firstChild;
    if (!selection || selection.rangeCount === 0 || !text) return;
    const range = selection.getRangeAt(0);
    // The content is one text node, so offsets within it are offsets in the content.
    if (range.startContainer !== text || range.endContainer !== text || range.collapsed) return;
    onPick(range.toString(), range.startOffset);
  };
  if (error) return <p className="error-notice small">The evidence text could not be read: {error}</p>;
  if (!detail) return null;
  return (
    <div className="stack">
      <span className="muted small">
        Select the number in <code>{revisionId}</code>, then:{' '}
        <button type="button" className="secondary small" data-testid={`${testId}-use`} onClick={useSelection}>
          Use selection
        </button>
      </span>
      <pre className="evidence-text" data-testid={testId} ref={pre} tabIndex={0}>
        {detail.content}
      </pre>
    </div>
  );
}
