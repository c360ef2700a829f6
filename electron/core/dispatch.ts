import { type z } from 'zod';
import type { Envelope, IssueDetail } from '../../shared/ipc/envelope';
import {
  contract,
  isChannel,
  type Channel,
  type ParsedRequestOf,
  type ResponseOf,
} from '../../shared/ipc/contract';
import { teamChannels } from '../../shared/ipc/channels/team';
import { illFormedText } from '../../shared/ipc/wellFormedText';
import { boundedIssues, boundedMessage, storageFailure, WorkbenchError } from './errors';
import type { Seat } from './session';
import type { CaseDb } from './store/caseFile';
import { pendingMark, recordPending } from './store/replicaRows';

export type Handler<C extends Channel> = (
  seat: Seat,
  request: ParsedRequestOf<C>,
) => ResponseOf<C> | Promise<ResponseOf<C>>;

export type HandlerTable = { [C in Channel]: Handler<C> };

/** The handlers of one domain's channels; handlers.ts merges them into the full table. */
export type HandlersFor<K extends Channel> = { [C in K]: Handler<C> };

const toIssues = (error: z.ZodError): IssueDetail[] =>
  error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));

const describeIssues = (issues: IssueDetail[]): string =>
  issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(request)'}: ${i.message}`)
    .join('; ');

/** No request of the contract nests anywhere near this deep. */
const MAX_REQUEST_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `limit`, found without recursion (and without revisiting a shared object). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    if (depth >= limit) return true;
    seen.add(v);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The single entry every transport (Electron IPC, loopback HTTP, CLI) goes through: validates the
 * request with the contract (and refuses text that is not well-formed Unicode), runs the one handler, checks the response shape, and answers the
 * envelope. Nothing but a WorkbenchError's message leaves here, so internals never leak.
 */
export async function dispatch(
  handlers: HandlerTable,
  session: Seat,
  channel: string,
  rawRequest: unknown,
): Promise<Envelope<unknown>> {
  if (!isChannel(channel)) {
    return {
      ok: false,
      error: { code: 'NOT_FOUND', message: `unknown channel ${JSON.stringify(channel).slice(0, 80)}` },
    };
  }
  const spec = contract[channel];
  // Validation walks a request recursively; one nested thousands deep would overflow the stack.
  if (nestedDeeperThan(rawRequest, MAX_REQUEST_DEPTH)) {
    return { ok: false, error: { code: 'VALIDATION', message: `${channel}: invalid request: nested more than ${MAX_REQUEST_DEPTH} levels deep` } };
  }
  const parsed = spec.request.safeParse(rawRequest ?? {});
  if (!parsed.success) {
    const issues = toIssues(parsed.error);
    return {
      ok: false,
      error: { code: 'VALIDATION', message: boundedMessage(`${channel}: invalid request: ${describeIssues(issues)}`), issues: boundedIssues(issues) },
    };
  }
  const illFormed = illFormedText(parsed.data);
  if (illFormed.length > 0) {
    return {
      ok: false,
      error: { code: 'VALIDATION', message: boundedMessage(`${channel}: invalid request: ${describeIssues(illFormed)}`), issues: boundedIssues(illFormed) },
    };
  }
  try {
    const handler = handlers[channel] as Handler<Channel>;
    // On a team replica, an action's request is kept until it is pushed (it may have to be taken
    // again on a newer head). The team channels are not actions on the case: what they write came
    // from the server (a pull) or went to it as it was written (convergence under the lease).
    const replica = channel in teamChannels ? null : replicaBefore(session);
    const value = await handler(session, parsed.data as never);
    if (replica && replica.db === openDb(session)) recordPending(replica.db, replica.mark, { actor: replica.actor, channel, request: parsed.data });
    const checked = spec.response.safeParse(value);
    if (!checked.success) {
      session.log(`${channel}: handler answered outside the contract: ${describeIssues(toIssues(checked.error))}`);
      return { ok: false, error: { code: 'INTERNAL', message: `${channel}: internal error (response outside the contract)` } };
    }
    return { ok: true, value: checked.data };
  } catch (err) {
    const known = err instanceof WorkbenchError ? err : storageFailure(channel, err);
    if (known) {
      return {
        ok: false,
        error: { code: known.code, message: boundedMessage(known.message), ...(known.issues ? { issues: boundedIssues(known.issues) } : {}) },
      };
    }
    session.log(`${channel}: ${(err as Error)?.stack ?? String(err)}`);
    return { ok: false, error: { code: 'INTERNAL', message: `${channel}: internal error; see the workbench log` } };
  }
}

/**
 * The open case's connection, or null when none is open or it is not to be touched now (an import
 * holds it: the channels that may run meanwhile are reads, and the import keeps its own record).
 */
function openDb(seat: Seat): CaseDb | null {
  if (seat.casePath === null) return null;
  try {
    return seat.db();
  } catch (err) {
    if (err instanceof WorkbenchError && err.code === 'BUSY') return null;
    throw err;
  }
}

/** Where a team replica stands before an action, and who acts (null: no case, not a replica, or no reviewer unlocked). */
function replicaBefore(seat: Seat): { db: CaseDb; mark: number; actor: string } | null {
  const db = openDb(seat);
  const mark = db ? pendingMark(db) : null;
  const actor = mark === null ? null : seat.unlockedActor();
  return db && mark !== null && actor ? { db, mark, actor: actor.actorId } : null;
}
