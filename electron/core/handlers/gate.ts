import type { HandlersFor } from '../dispatch';
import { finalizeCase, gateStatus, reopenCase } from '../services/gate';

export const gateHandlers = {
  'case:gate': (s) => gateStatus(s.context()),
  'case:finalize': (s) => finalizeCase(s.context()),
  'case:reopen': (s, req) => reopenCase(s.context(), req),
} satisfies HandlersFor<'case:gate' | 'case:finalize' | 'case:reopen'>;
