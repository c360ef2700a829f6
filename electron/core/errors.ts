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

/**
 * What a storage failure means to the user, or null when `err` is not one. SQLite reports them
 * with codes (better-sqlite3's SqliteError); a failed write rolled its transaction back, so each
 * message can say that nothing was written.
 */
export function storageFailure(channel: string, err: unknown): WorkbenchError | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  const say = (c: 'BUSY' | 'STORAGE', what: string) => new WorkbenchError(c, `${channel}: ${what}; nothing was written`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return say('BUSY', 'the case is being written by another window or process; try again in a moment');
  }
  if (code === 'SQLITE_CONSTRAINT_CHECK') {
    // A value the schema's own rules refuse (an empty text, a number out of range) that no request
    // schema caught first: e.g. a text that begins with a NUL character, which SQLite measures as empty.
    const rule = /CHECK constraint failed: (.*)$/.exec(err instanceof Error ? err.message : '')?.[1] ?? 'a check of the schema';
    return new WorkbenchError('VALIDATION', `${channel}: a value breaks the case file's rule ${rule} (text that begins with a NUL character counts as empty); nothing was written`);
  }
  if (code === 'SQLITE_FULL') return say('STORAGE', 'the disk holding the case file is full; free some space and try again');
  if (code.startsWith('SQLITE_READONLY')) {
    return say('STORAGE', 'the case file cannot be written (the file or its folder is read-only); make them writable, or copy the case to a writable folder');
  }
  if (code.startsWith('SQLITE_IOERR')) return say('STORAGE', `the disk reported an error while writing the case file (${code}); check the disk and try again`);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return say('STORAGE', 'the case file is damaged; restore it from a backup and verify it');
  if (code.startsWith('SQLITE_CANTOPEN')) return say('STORAGE', 'the case file or its journal could not be opened; check that the folder exists and is writable');
  return null;
}

/** Messages are for people: one that grew past this (it quoted input) is cut, never echoed whole. */
export const MAX_MESSAGE = 2000;
export const boundedMessage = (message: string): string =>
  message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE - 60)}… (${message.length - MAX_MESSAGE + 60} characters cut)`;

const MAX_ISSUES = 10;
const MAX_ISSUE_MESSAGE = 500;
const MAX_PATH_KEY = 64;
const MAX_PATH_DEPTH = 16;
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * Issues as they leave: a few, each short, with short paths (a key of a request can be megabytes
 * long, and 500 bad fields make 500 issues). Enough to point at what to fix; never an echo.
 */
export function boundedIssues(issues: readonly IssueDetail[]): IssueDetail[] {
  const kept = issues.slice(0, MAX_ISSUES).map((i) => ({
    path: i.path.slice(0, MAX_PATH_DEPTH).map((p) => (typeof p === 'string' ? cut(p, MAX_PATH_KEY) : p)),
    message: cut(i.message, MAX_ISSUE_MESSAGE),
  }));
  if (issues.length > MAX_ISSUES) kept.push({ path: [], message: `and ${issues.length - MAX_ISSUES} more problems of the same request` });
  return kept;
}

/** The user stopped a long operation; what it had done was rolled back. */
export const cancelled = (what: string) => new WorkbenchError('CANCELLED', `${what} was cancelled; nothing was written`);
