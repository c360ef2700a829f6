import { useMemo } from 'react';
import { inertSegments, type InertSegment } from '../../shared/domain/inertText';

/** Segments as React nodes: text as text nodes, each invisible character as a visible marker. */
export function SegmentNodes({ segments }: { segments: readonly InertSegment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.kind === 'text' ? (
          s.text
        ) : (
          <span key={i} className="hidden-char" title={`invisible character ${s.codePoint}`}>
            ⟨{s.codePoint}⟩
          </span>
        ),
      )}
    </>
  );
}

/**
 * A title or statement as inert text, on one line of a heading, row or node: like InertText, the
 * invisible and control characters (bidi overrides, zero-width spaces) are shown as ⟨U+XXXX⟩
 * markers, so `invoice_\u202Efdp.exe` cannot pass for `invoice_exe.pdf` (issue 12, hostile
 * content). Text nodes only; nothing in it can create an element.
 */
export function InertLabel({ text }: { text: string }) {
  const segments = useMemo(() => inertSegments(text), [text]);
  return <SegmentNodes segments={segments} />;
}
