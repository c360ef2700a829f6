import { z } from 'zod';

export const ERROR_CODES = [
  'VALIDATION',
  'NOT_FOUND',
  'FORBIDDEN',
  'CONFLICT',
  'ILLEGAL_TRANSITION',
  'NO_CASE',
  /** No reviewer is unlocked in this window (or the idle lock closed it): unlock to go on. */
  'LOCKED',
  /** Another window or process is writing the case; nothing was written: try again. */
  'BUSY',
  /** The case file could not be written or read (disk full, read-only, damaged); nothing was written. */
  'STORAGE',
  /** The user cancelled a long operation (an import); nothing was written. */
  'CANCELLED',
  'INTERNAL',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const IssueDetail = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type IssueDetail = z.infer<typeof IssueDetail>;

export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
  issues: z.array(IssueDetail).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

/** Thrown by the bridges when a handler answered `ok: false`; keeps the code and zod paths. */
export class WorkbenchCallError extends Error {
  readonly code: ErrorCode;
  readonly issues: IssueDetail[] | undefined;
  constructor(
    readonly channel: string,
    error: ErrorBody,
  ) {
    super(error.message);
    this.name = 'WorkbenchCallError';
    this.code = error.code;
    this.issues = error.issues;
  }
}
