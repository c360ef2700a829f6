import type { HandlersFor } from '../dispatch';
import { createComputation, listComputations } from '../services/computations';

export const computationHandlers = {
  'computation:create': (s, req) => createComputation(s.context(), req),
  'computation:list': (s, req) => listComputations(s.context(), req),
} satisfies HandlersFor<'computation:create' | 'computation:list'>;
