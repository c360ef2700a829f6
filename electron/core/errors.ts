import type { ErrorCode, IssueDetail } from '../../shared/ipc/envelope';

/**
 * The one error type services throw. Handlers turn it into the envelope's error; anything else
 * becomes INTERNAL, so a code here is a promise to the caller about what went wrong.
 */
export class WorkbenchError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: IssueDetail[],
  ) {
    super(message);
    this.name = 'WorkbenchError';
  }
}

export const notFound = (message: string) => new WorkbenchError('NOT_FOUND', message);
export const forbidden = (message: string) => new WorkbenchError('FORBIDDEN', message);
export const conflict = (message: string) => new WorkbenchError('CONFLICT', message);
export const invalid = (message: string, issues?: IssueDetail[]) =>
  new WorkbenchError('VALIDATION', message, issues);
