import type { HandlersFor } from '../dispatch';
import { confirmIndependent } from '../services/copies';
import { ingestEvidence, reviseEvidence } from '../services/evidence';
import { getEvidence, listEvidence, validateEvidence } from '../services/evidenceReads';
import { transitionEvidence, validateMany, verifySpan } from '../services/evidenceTransitions';

export const evidenceHandlers = {
  'evidence:list': (s, req) => listEvidence(s.context(), req),
  'evidence:get': (s, req) => getEvidence(s.context(), req.revisionId),
  'evidence:ingest': (s, req) => ingestEvidence(s.context(), req),
  'evidence:transition': (s, req) => transitionEvidence(s.context(), req),
  'evidence:validateMany': (s, req) => validateMany(s.context(), req),
  'evidence:revise': (s, req) => reviseEvidence(s.context(), req),
  'evidence:validate': (s, req) => validateEvidence(s.context(), req.revisionId),
  'evidence:verifySpan': (s, req) => verifySpan(s.context(), req.revisionId),
  'evidence:confirmIndependent': (s, req) => confirmIndependent(s.context(), req),
} satisfies HandlersFor<
  | 'evidence:confirmIndependent'
  | 'evidence:list'
  | 'evidence:get'
  | 'evidence:ingest'
  | 'evidence:transition'
  | 'evidence:validateMany'
  | 'evidence:revise'
  | 'evidence:validate'
  | 'evidence:verifySpan'
>;
