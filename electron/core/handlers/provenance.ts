import type { HandlersFor } from '../dispatch';
import { recordProvenance, traceProvenance } from '../services/provenance';

export const provenanceHandlers = {
  'prov:record': (s, req) => recordProvenance(s.context(), req),
  'provenance:trace': (s, req) => traceProvenance(s.context(), req),
} satisfies HandlersFor<'prov:record' | 'provenance:trace'>;
