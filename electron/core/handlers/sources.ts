// Registers audit verification's state checks for this capability's receipts (see receiptChecks.ts).
import type { HandlersFor } from '../dispatch';
import { addSource, getSource, listSources } from '../services/sources';

export const sourceHandlers = {
  'source:add': (s, req) => addSource(s.context(), req),
  'source:get': (s, req) => getSource(s.context(), req.sourceId),
  'source:list': (s, req) => listSources(s.context(), req),
} satisfies HandlersFor<'source:add' | 'source:get' | 'source:list'>;
