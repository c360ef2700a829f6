import { useState } from 'react';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { call } from '../bridge';
import { actionErrorOf } from '../state/actionError';
import { useWorkbench } from '../state/store';
import type { ActionError } from '../state/types';

/**
 * One action of the window: sends the request through its channel exactly as typed (the service's own
 * validation is the rule), keeps the refusal with its zod paths for the fields, and refreshes the
 * views after a recorded change.
 */
export function useChannelAction<C extends Channel>(channel: C) {
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

