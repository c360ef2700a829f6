import { useState, type ReactNode } from 'react';
import type { Channel, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { call } from '../../bridge';
import { ErrorNotice } from '../../components/ErrorNotice';
import { actionErrorOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';
import type { ActionError } from '../../state/types';

/**
 * One intake action: sends the request through its channel exactly as typed (the service's own
 * validation is the rule), keeps the refusal with its zod paths for the fields, and refreshes the
 * views after a recorded change.
 */
export function useIntake<C extends Channel>(channel: C) {
  const refreshAll = useWorkbench((s) => s.refreshAll);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [result, setResult] = useState<ResponseOf<C> | null>(null);
  /** `onDone` resets the form in the same render that shows the outcome, after the views refreshed. */
  const submit = async (request: RequestOf<C>, onDone?: (value: ResponseOf<C>) => void): Promise<void> => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const value = await call(channel, request);
      await refreshAll();
      onDone?.(value);
      setResult(value);
    } catch (err) {
      setError(actionErrorOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error, result, clear: () => setResult(null) };
}

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
