import type { HandlersFor } from '../dispatch';
import { verifyOpenCase } from './caseVerification';
import { finalizeCase, gateStatus, reopenCase } from '../services/gate';

export const gateHandlers = {
  'case:gate': async (s, req) => {
    const ctx = s.context();
    return gateStatus(ctx, await verifyOpenCase(s, { full: false }), req);
  },
  'case:finalize': (s) => finalizeCase(s.context()),
  'case:reopen': (s, req) => reopenCase(s.context(), req),
} satisfies HandlersFor<'case:gate' | 'case:finalize' | 'case:reopen'>;
