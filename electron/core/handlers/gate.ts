import type { HandlersFor } from '../dispatch';
import { finalizeCase, gateStatus } from '../services/gate';

export const gateHandlers = {
  'case:gate': (s) => gateStatus(s.context()),
  'case:finalize': (s) => finalizeCase(s.context()),
} satisfies HandlersFor<'case:gate' | 'case:finalize'>;
