import { conflict } from '../errors';
import type { CaseDb } from '../store/caseFile';

/**
 * FINAL is a state (DESIGN §3.10): from a case:finalize receipt until an admin's case:reopen, the
 * case takes no change. The lock is read from the receipts themselves (the latest finalize or
 * reopen), so it is as tamper-evident as they are and needs no table of its own.
 */
export interface CaseLock {
  /** seq of the case:finalize receipt in force. */
  seq: number;
  at: string;
  by: string;
}

export function finalLock(db: CaseDb): CaseLock | null {
  const row = db
    .prepare(`SELECT seq, at, actor, action FROM audit_receipt WHERE action IN ('case:finalize', 'case:reopen') ORDER BY seq DESC LIMIT 1`)
    .get() as { seq: number; at: string; actor: string; action: string } | undefined;
  return row?.action === 'case:finalize' ? { seq: row.seq, at: row.at, by: row.actor } : null;
}

/**
 * Refuses any change to a FINAL case but its reopening. appendReceipt calls it first: every change
 * appends its receipt inside its own transaction, so the refusal rolls the whole change back.
 */
export function assertOpenForChange(db: CaseDb, action: string): void {
  if (action === 'case:reopen') return;
  const lock = finalLock(db);
  if (!lock) return;
  throw conflict(
    `${action}: the case is FINAL (finalized by ${lock.by} at ${lock.at}, receipt ${lock.seq}) and takes no change; ` +
      'an admin can reopen it with case:reopen and a reason',
  );
}
