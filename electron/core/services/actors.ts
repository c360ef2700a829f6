import type { Actor, ServiceContext } from '../context';
import { appendReceipt } from '../audit/receipts';
import { issueActorKey } from './signingKeys';
import { conflict, forbidden } from '../errors';
import type { CaseDb } from '../store/caseFile';

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

/** Inserts a profile without a receipt: only for the bootstrap admin of a brand-new case. */
export function insertActor(db: CaseDb, actor: Actor, at: string): void {
  db.prepare(
    `INSERT INTO actor (actor_id, display_name, role, tenants, max_classification, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(actor.actorId, actor.displayName, actor.role, JSON.stringify(actor.tenants), actor.maxClassification, at);
}

export function createActor(ctx: ServiceContext, actor: Actor): Actor {
  if (ctx.actor.role !== 'admin') {
    throw forbidden(`actor:create: only an admin may add reviewer profiles; ${ctx.actor.actorId} is ${ctx.actor.role}`);
  }
  return ctx.db.transaction(() => {
    if (getActor(ctx.db, actor.actorId)) throw conflict(`actor:create: ${actor.actorId} already exists`);
    insertActor(ctx.db, actor, ctx.now());
    // The new reviewer's key pair is made on this machine; its public half goes into the receipt.
    const registersKey = issueActorKey(ctx, actor.actorId, 'actor:create');
    appendReceipt(ctx, { action: 'actor:create', targets: [`actor:${actor.actorId}`], body: { ...actor, registersKey }, post: actor });
    return actor;
  })();
}
