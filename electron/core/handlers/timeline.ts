import type { HandlersFor } from '../dispatch';
import { timeline } from '../services/timeline';

export const timelineHandlers = {
  'timeline:list': (s, req) => timeline(s.context(), req),
} satisfies HandlersFor<'timeline:list'>;
