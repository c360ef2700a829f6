import type { HandlersFor } from '../dispatch';
import { searchCase } from '../services/search';

export const searchHandlers = {
  'search:query': (s, req) => searchCase(s.context(), req),
} satisfies HandlersFor<'search:query'>;
