import type { HandlersFor } from '../dispatch';
import { getEvidence, ingestEvidence, listEvidence, reviseEvidence, transitionEvidence } from '../services/evidence';

export const evidenceHandlers = {
  'evidence:list': (s, req) => listEvidence(s.context(), req),
  'evidence:get': (s, req) => getEvidence(s.context(), req.revisionId),
  'evidence:ingest': (s, req) => ingestEvidence(s.context(), req),
  'evidence:transition': (s, req) => transitionEvidence(s.context(), req),
  'evidence:revise': (s, req) => reviseEvidence(s.context(), req),
} satisfies HandlersFor<'evidence:list' | 'evidence:get' | 'evidence:ingest' | 'evidence:transition' | 'evidence:revise'>;
