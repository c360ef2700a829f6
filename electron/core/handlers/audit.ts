import { redactReceipts, redactVerification } from '../audit/redact';
import { join } from 'node:path';
import { chainHead, listReceipts } from '../audit/verify';
import { VerificationMarks, verifyFromMark } from '../audit/verifyMarks';
import type { HandlersFor } from '../dispatch';
import { inReadSnapshot, openReader } from '../store/caseFile';
import { listActorKeys, rekeyActor } from '../services/signingKeys';

export const auditHandlers = {
  'audit:verify': async (s, req) => {
    const ctx = s.context();
    // Its own connection and one read transaction: the workbench's writes (the outbox worker's
    // too) go on meanwhile, and the chain walk and the state checks see the same state.
    const reader = openReader(s.casePath!);
    const { full, ...options } = req;
    // In full the first time after the case was opened (the file may have been changed while the
    // workbench was closed), then routinely: from where the last verification ended (verifyMarks.ts).
    const opened = s.session.openCase();
    const marks = new VerificationMarks(join(s.session.userDataDir, 'verified'));
    try {
      const verified = await inReadSnapshot(reader, () => verifyFromMark(reader, { marks, full: full || !opened.verifiedInFull, now: s.now, options }));
      if (verified.ok && !verified.routine) opened.verifiedInFull = true;
      return redactVerification(ctx.db, ctx.actor, verified);
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
