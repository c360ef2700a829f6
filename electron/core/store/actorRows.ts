import type { Actor } from '../context';
import type { CaseDb } from './caseFile';

/** Row access to reviewer profiles (the actor table). */
interface ActorRow {
  actor_id: string;
  display_name: string;
  role: Actor['role'];
  tenants: string;
  max_classification: Actor['maxClassification'];
}

const toActor = (r: ActorRow): Actor => ({
  actorId: r.actor_id,
  displayName: r.display_name,
  role: r.role,
  tenants: JSON.parse(r.tenants) as string[],
  maxClassification: r.max_classification,
});

export function listActors(db: CaseDb): Actor[] {
  return (db.prepare('SELECT * FROM actor ORDER BY created_at, actor_id').all() as ActorRow[]).map(toActor);
}

export function getActor(db: CaseDb, actorId: string): Actor | null {
  const row = db.prepare('SELECT * FROM actor WHERE actor_id = ?').get(actorId) as ActorRow | undefined;
  return row ? toActor(row) : null;
}

/** Inserts a profile; the caller writes the receipt (or, for a brand-new case's admin, the case:create receipt does). */
export function insertActor(db: CaseDb, actor: Actor, at: string): void {
  db.prepare(
    `INSERT INTO actor (actor_id, display_name, role, tenants, max_classification, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(actor.actorId, actor.displayName, actor.role, JSON.stringify(actor.tenants), actor.maxClassification, at);
}
