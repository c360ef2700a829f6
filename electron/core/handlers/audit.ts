import { redactReceipts, redactVerification } from '../audit/redact';
import { chainHead, listReceipts } from '../audit/verify';
import type { HandlersFor } from '../dispatch';
import { verifyOpenCase } from './caseVerification';
import { listActorKeys, rekeyActor } from '../services/signingKeys';

export const auditHandlers = {
  'audit:verify': async (s, req) => {
    const ctx = s.context();
    const { full, ...options } = req;
    return redactVerification(ctx.db, ctx.actor, await verifyOpenCase(s, { full, options }));
  },
  'audit:head': (s) => chainHead(s.db()),
  'audit:list': (s, req) => {
    const ctx = s.context();
    return { items: redactReceipts(ctx.db, ctx.actor, listReceipts(ctx.db, req.limit, req.beforeSeq)) };
  },
  'audit:keys': (s) => ({ items: listActorKeys(s.db()) }),
  'actor:rekey': (s, req) => rekeyActor(s.context(), req),
} satisfies HandlersFor<'audit:verify' | 'audit:head' | 'audit:list' | 'audit:keys' | 'actor:rekey'>;
