import { useEffect, useRef } from 'react';
import type { ActionError } from '../state/types';

/** A refused action, as the handler worded it, with the zod paths that point at the field. */
export function ErrorNotice({ error, testId }: { error: ActionError; testId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // Forms sit at the bottom of scrolling panes; a refusal below the fold would go unnoticed.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  return (
    <div className="error-notice" role="alert" data-testid={testId} ref={ref}>
      <div>
        <span className="error-code" data-testid={`${testId}-code`}>
          {error.code}
        </span>{' '}
        <span data-testid={`${testId}-message`}>{error.message}</span>
      </div>
      {error.issues.length > 0 && (
        <ul className="issues" data-testid={`${testId}-issues`}>
          {error.issues.map((issue, i) => (
            <li key={i}>
              <code>{issue.path.length > 0 ? issue.path.join('.') : '(request)'}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
