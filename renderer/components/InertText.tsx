import { useMemo, useState } from 'react';
import { countHidden, inertSegments } from '../../shared/domain/inertText';
import { SegmentNodes } from './InertLabel';

// Rendering a megabyte of text in one <pre> stalls the window; the analyst can ask for the rest.
const PREVIEW_CHARS = 100_000;

/**
 * Evidence content as inert text: React text nodes only (never innerHTML), whitespace preserved,
 * invisible characters shown as markers. Nothing in the content can create an element.
 */
export function InertText({ content, testId }: { content: string; testId: string }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? content : content.slice(0, PREVIEW_CHARS);
  const segments = useMemo(() => inertSegments(shown), [shown]);
  const hidden = countHidden(segments);
  return (
    <div className="inert">
      {hidden > 0 && (
        <p className="inert-warning" data-testid={`${testId}-hidden`}>
          Contains {hidden} invisible or control character{hidden === 1 ? '' : 's'}, shown as ⟨U+XXXX⟩ markers.
        </p>
      )}
      {/* Focusable: a long text scrolls, and the keyboard must reach it too. */}
      <pre className="evidence-text" data-testid={testId} tabIndex={0}>
        <SegmentNodes segments={segments} />
      </pre>
      {content.length > PREVIEW_CHARS && !showAll && (
        <button type="button" className="secondary small" data-testid={`${testId}-show-all`} onClick={() => setShowAll(true)}>
          Show all {content.length.toLocaleString('en')} characters
        </button>
      )}
    </div>
  );
}
