import { useEffect, useState } from 'react';
import { copyText } from './clipboard';
import { shortHash } from './format';

/** A copy button with its own feedback; when copying is refused the value stays selectable. */
export function CopyButton({ value, testId, label = 'Copy' }: { value: string; testId: string; label?: string }) {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!result) return;
    const timer = setTimeout(() => setResult(null), 1800);
    return () => clearTimeout(timer);
  }, [result]);
  return (
    <button
      type="button"
      className="secondary small copy"
      data-testid={testId}
      title={`Copy ${value}`}
      onClick={() => void copyText(value).then((ok) => setResult(ok ? 'copied' : 'failed'))}
    >
      {result === 'copied' ? 'Copied' : result === 'failed' ? 'Copy refused: select the text' : label}
    </button>
  );
}

/**
 * A SHA-256 fingerprint or hash: short on screen, complete in the title, the data attribute and the
 * clipboard, since the full value is what a reviewer compares or pastes.
 */
export function Fingerprint({ value, testId, length = 12 }: { value: string; testId: string; length?: number }) {
  return (
    <span className="fingerprint">
      <code data-testid={testId} data-value={value} title={value}>
        {shortHash(value, length)}
      </code>
      <CopyButton value={value} testId={`${testId}-copy`} />
    </span>
  );
}
