import type { HandlersFor } from '../dispatch';
import { casePointsOfFailure, claimPointsOfFailure, whatIfRevoke } from '../services/whatIf';

export const whatIfHandlers = {
  'whatIf:revoke': (s, req) => whatIfRevoke(s.context(), req),
  'whatIf:claim': (s, req) => claimPointsOfFailure(s.context(), req),
  'whatIf:case': (s, req) => casePointsOfFailure(s.context(), req),
} satisfies HandlersFor<'whatIf:revoke' | 'whatIf:claim' | 'whatIf:case'>;
