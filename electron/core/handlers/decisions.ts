import type { HandlersFor } from '../dispatch';
import {
  approveDecision,
  getDecision,
  listDecisions,
  proposeDecision,
  rejectDecision,
  verifyDecision,
  withdrawDecision,
} from '../services/decisions';

export const decisionHandlers = {
  'decision:propose': (s, req) => proposeDecision(s.context(), req),
  'decision:approve': (s, req) => approveDecision(s.context(), req),
  'decision:reject': (s, req) => rejectDecision(s.context(), req),
  'decision:withdraw': (s, req) => withdrawDecision(s.context(), req),
  'decision:verify': (s, req) => verifyDecision(s.context(), req),
  'decision:get': (s, req) => getDecision(s.context(), req.decisionId),
  'decision:list': (s, req) => listDecisions(s.context(), req),
} satisfies HandlersFor<
  'decision:propose' | 'decision:approve' | 'decision:reject' | 'decision:withdraw' | 'decision:verify' | 'decision:get' | 'decision:list'
>;
