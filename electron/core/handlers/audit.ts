import { redactReceipts, redactVerification } from '../audit/redact';
import { chainHead, listReceipts, verifyChainAsync } from '../audit/verify';
import type { HandlersFor } from '../dispatch';
import { inReadSnapshot, openReader } from '../store/caseFile';
import { listActorKeys, rekeyActor } from '../services/signingKeys';

export const auditHandlers = {
  'audit:verify': async (s, req) => {
    const ctx = s.context();
    // Its own connection and one read transaction: the workbench's writes (the outbox worker's
    // too) go on meanwhile, and the chain walk and the state checks see the same state.
    const reader = openReader(s.casePath!);
    try {
      return redactVerification(ctx.db, ctx.actor, await inReadSnapshot(reader, () => verifyChainAsync(reader, req)));
    } finally {
      reader.close();
    }
  },
  'audit:head': (s) => chainHead(s.db()),
  'audit:list': (s, req) => {
    const ctx = s.context();
    return { items: redactReceipts(ctx.db, ctx.actor, listReceipts(ctx.db, req.limit, req.beforeSeq)) };
  },
  'audit:keys': (s) => ({ items: listActorKeys(s.db()) }),
  'actor:rekey': (s, req) => rekeyActor(s.context(), req),
} satisfies HandlersFor<'audit:verify' | 'audit:head' | 'audit:list' | 'audit:keys' | 'actor:rekey'>;
