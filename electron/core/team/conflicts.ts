import { forbidden, notFound } from '../errors';
import { writeTransaction, type CaseDb } from '../store/caseFile';

/**
 * Provisional actions that were no longer valid on the server's newer head (reconcile.ts), kept in
 * the replica until their author redoes or drops them.
 */
export interface ConflictRow {
  conflict_id: number;
  actor: string;
  channel: string;
  request: string | null;
  reason: string;
  made_at: string;
  found_at: string;
}

/** The conflicts waiting on this replica: `actorId`'s, or everyone's. */
export function listConflicts(db: CaseDb, actorId?: string): ConflictRow[] {
  return (actorId
    ? db.prepare('SELECT * FROM replica_conflict WHERE actor = ? ORDER BY conflict_id').all(actorId)
    : db.prepare('SELECT * FROM replica_conflict ORDER BY conflict_id').all()) as ConflictRow[];
}

/** Drops a conflict its author has redone or decided against. */
export function dropConflict(db: CaseDb, conflictId: number, actorId: string): void {
  const row = db.prepare('SELECT actor FROM replica_conflict WHERE conflict_id = ?').get(conflictId) as { actor: string } | undefined;
  if (!row) throw notFound(`team drop: no conflict ${conflictId} in this case file`);
  if (row.actor !== actorId) throw forbidden(`team drop: conflict ${conflictId} is ${row.actor}'s to redo or drop, not ${actorId}'s`);
  writeTransaction(db, () => db.prepare('DELETE FROM replica_conflict WHERE conflict_id = ?').run(conflictId));
}
