import type { StateCreator } from 'zustand';
import type { ErrorCode, IssueDetail } from '../../shared/ipc/envelope';
import { WorkbenchCallError } from '../../shared/ipc/envelope';
import type { WorkbenchState } from './store';

export type Slice<T> = StateCreator<WorkbenchState, [], [], T>;

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * What a refused action shows the analyst: the handler's own message, its code and the zod issue
 * paths, so "reason: a reason is required" points at the field instead of a generic failure.
 */
export interface ActionError {
  code: ErrorCode | 'CLIENT';
  message: string;
  issues: IssueDetail[];
}

export function actionErrorOf(err: unknown): ActionError {
  if (err instanceof WorkbenchCallError) return { code: err.code, message: err.message, issues: err.issues ?? [] };
  return { code: 'CLIENT', message: messageOf(err), issues: [] };
}
