import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { RememberedValue, RememberedView } from '../../shared/ipc/channels/case';
import { call } from '../bridge';
import { useWorkbench } from '../state/store';

/**
 * A view's filter, remembered per case on this machine (view:recall / view:remember): recalled
 * when the view opens on a case, checked against `schema` (what no longer fits falls back to
 * `fallback`), and remembered on every change. Not remembering loses a convenience, not data, so
 * a failed call leaves the filter as it is on screen.
 */
export function useRememberedFilter<T extends RememberedValue>(view: RememberedView, schema: z.ZodType<T>, fallback: T): [T, (next: T) => void] {
  const caseId = useWorkbench((s) => s.caseInfo?.caseId ?? null);
  const [value, setValue] = useState<T>(fallback);
  useEffect(() => {
    if (caseId === null) return;
    let current = true;
    call('view:recall', { view })
      .then(({ value: stored }) => {
        const parsed = schema.safeParse(stored);
        if (current) setValue(stored !== null && parsed.success ? parsed.data : fallback);
      })
      .catch(() => {});
    return () => {
      current = false;
    };
    // Not on `fallback`: a constant of the view, and a new object each render must not recall again.
  }, [caseId, view, schema]);
  const set = useCallback(
    (next: T) => {
      setValue(next);
      call('view:remember', { view, value: next }).catch(() => {});
    },
    [view],
  );
  return [value, set];
}
