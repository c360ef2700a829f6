import type { Actor, ServiceContext } from '../context';
import { appendReceipt } from '../audit/receipts';
import { issueActorKey } from './signingKeys';
import { conflict, forbidden } from '../errors';
import { getActor, insertActor } from '../store/actorRows';
import { writeTransaction } from '../store/caseFile';

/** Adds a reviewer profile and issues its key, sealed with the new reviewer's passphrase. */
export function createActor(ctx: ServiceContext, actor: Actor, passphrase: string): Actor {
  if (ctx.actor.role !== 'admin') {
    throw forbidden(`actor:create: only an admin may add reviewer profiles; ${ctx.actor.actorId} is ${ctx.actor.role}`);
  }
  return writeTransaction(ctx.db, () => {
    if (getActor(ctx.db, actor.actorId)) throw conflict(`actor:create: ${actor.actorId} already exists`);
    insertActor(ctx.db, actor, ctx.now());
    // The new reviewer's key pair is made on this machine; its public half goes into the receipt.
    const registersKey = issueActorKey(ctx, actor.actorId, 'actor:create', passphrase);
    appendReceipt(ctx, { action: 'actor:create', targets: [`actor:${actor.actorId}`], body: { ...actor, registersKey }, post: actor });
    return actor;
  });
}
