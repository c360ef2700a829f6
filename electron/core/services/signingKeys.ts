import type { ActorKeyView } from '../../../shared/ipc/channels/audit';
import { pinnedKeySource, type KeyRegistration } from '../audit/keys';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { forbidden, notFound } from '../errors';
import { writeTransaction, type CaseDb } from '../store/caseFile';
import { getActor } from '../store/actorRows';

/** Issues a key pair for a reviewer inside the caller's transaction (actor:create, actor:rekey). */
export function issueActorKey(ctx: ServiceContext, actorId: string, action: string, passphrase: string): KeyRegistration {
  if (!ctx.keyring) throw forbidden(`${action} refused: this session holds no reviewer keys; open the case through a workbench session`);
  return ctx.keyring.issue(ctx.db, actorId, ctx.now(), passphrase);
}

/**
 * Gives a reviewer a new key on this machine and retires the old one, e.g. when the case was
 * carried here without the reviewer's private key or a laptop holding it was lost. Only an admin
 * may do it, and the admin's own (already registered) key signs the receipt: a key never vouches
 * for itself except the case creator's, which is the root of the chain.
 */
export function rekeyActor(ctx: ServiceContext, req: { actorId: string; reason: string; passphrase: string }): ActorKeyView {
  if (ctx.actor.role !== 'admin') {
    throw forbidden(`actor:rekey: only an admin may issue reviewer keys; ${ctx.actor.actorId} is ${ctx.actor.role}`);
  }
  if (!ctx.keyring) throw forbidden('actor:rekey refused: this session holds no reviewer keys');
  const keyring = ctx.keyring;
  return writeTransaction(ctx.db, () => {
    if (!getActor(ctx.db, req.actorId)) throw notFound(`actor:rekey: no reviewer profile ${req.actorId} in this case`);
    const signer = keyring.activeKey(ctx.db, ctx.actor.actorId, 'actor:rekey');
    const registersKey = keyring.issue(ctx.db, req.actorId, ctx.now(), req.passphrase);
    const view = listActorKeys(ctx.db).find((k) => k.keyId === registersKey.keyId)!;
    appendReceipt(
      { ...ctx, keyring: pinnedKeySource(keyring, signer) },
      {
        action: 'actor:rekey',
        targets: [`key:${registersKey.keyId}`, `actor:${req.actorId}`],
        body: { actorId: req.actorId, reason: req.reason, registersKey },  // never the passphrase
        post: { keyId: view.keyId, actorId: view.actorId, publicKey: view.publicKey },
      },
    );
    return view;
  });
}

export function listActorKeys(db: CaseDb): ActorKeyView[] {
  const rows = db.prepare('SELECT * FROM actor_key ORDER BY registered_at, key_id').all() as {
    key_id: string;
    actor_id: string;
    public_key: string;
    registered_at: string;
    retired_at: string | null;
  }[];
  return rows.map((r) => ({
    keyId: r.key_id,
    actorId: r.actor_id,
    algorithm: 'ed25519' as const,
    publicKey: r.public_key,
    registeredAt: r.registered_at,
    retiredAt: r.retired_at,
  }));
}
