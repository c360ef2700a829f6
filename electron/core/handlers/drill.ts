import type { HandlersFor } from '../dispatch';
import { runDrill } from '../drill/drill';
import { caseMetrics } from '../services/metrics';

export const drillHandlers = {
  'metrics:get': (s) => caseMetrics(s.context()),
  'drill:run': (s, req) => runDrill(s.context(), req, s.now),
} satisfies HandlersFor<'metrics:get' | 'drill:run'>;
