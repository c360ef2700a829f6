import type { ReactNode } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { ActionError } from '../../state/types';

/** The refusal's messages for one field (its path, or anything below it), e.g. ['context', 'tenant']. */
export function issuesAt(error: ActionError | null, path: readonly (string | number)[]): string[] {
  if (!error) return [];
  return error.issues.filter((i) => path.every((p, k) => i.path[k] === p)).map((i) => i.message);
}

/** A labelled input with what was wrong with it right beside it. */
export function Field({ label, path, error, wide, testId, children }: { label: string; path: readonly (string | number)[]; error: ActionError | null; wide?: boolean; testId: string; children: ReactNode }) {
  const problems = issuesAt(error, path);
  return (
    <label className={wide ? 'field wide' : 'field'}>
      {label}
      {children}
      {problems.map((m, i) => (
        <span key={i} className="error" data-testid={`${testId}-issue`}>
          {m}
        </span>
      ))}
    </label>
  );
}

/** The refusal as a whole (code and message), and the recorded outcome. */
export function Outcome({ error, done, testId }: { error: ActionError | null; done: ReactNode; testId: string }) {
  return (
    <>
      {error && <ErrorNotice error={error} testId={`${testId}-error`} />}
      {done && (
        <p className="ok" role="status" data-testid={`${testId}-done`}>
          {done}
        </p>
      )}
    </>
  );
}

export const list = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);

/** Optional text as the contract takes it: null when left empty. */
export const orNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());
