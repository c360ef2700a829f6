import { WorkbenchCallError } from '../../shared/ipc/envelope';
import type { ActionError } from './types';

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A refusal as the analyst sees it: the bridge's typed error keeps its code and zod paths. */
export function actionErrorOf(err: unknown): ActionError {
  if (err instanceof WorkbenchCallError) return { code: err.code, message: err.message, issues: err.issues ?? [] };
  return { code: 'CLIENT', message: messageOf(err), issues: [] };
}

/** The item is not there for this reader (another clearance, or it never was): dropped from a cache, not reported. */
export const isGone = (err: unknown): boolean => err instanceof WorkbenchCallError && err.code === 'NOT_FOUND';
