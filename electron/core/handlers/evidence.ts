import type { HandlersFor } from '../dispatch';
import {
  getEvidence,
  ingestEvidence,
  listEvidence,
  reviseEvidence,
  transitionEvidence,
  validateEvidence,
  verifySpan,
} from '../services/evidence';

export const evidenceHandlers = {
  'evidence:list': (s, req) => listEvidence(s.context(), req),
  'evidence:get': (s, req) => getEvidence(s.context(), req.revisionId),
  'evidence:ingest': (s, req) => ingestEvidence(s.context(), req),
  'evidence:transition': (s, req) => transitionEvidence(s.context(), req),
  'evidence:revise': (s, req) => reviseEvidence(s.context(), req),
  'evidence:validate': (s, req) => validateEvidence(s.context(), req.revisionId),
  'evidence:verifySpan': (s, req) => verifySpan(s.context(), req.revisionId),
} satisfies HandlersFor<
  | 'evidence:list'
  | 'evidence:get'
  | 'evidence:ingest'
  | 'evidence:transition'
  | 'evidence:revise'
  | 'evidence:validate'
  | 'evidence:verifySpan'
>;
