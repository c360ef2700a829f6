import type { HandlersFor } from '../dispatch';
import { graphNeighbourhood } from '../services/graph';

export const graphHandlers = {
  'graph:neighbourhood': (s, req) => graphNeighbourhood(s.context(), req),
} satisfies HandlersFor<'graph:neighbourhood'>;
