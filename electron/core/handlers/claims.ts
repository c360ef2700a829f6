import type { HandlersFor } from '../dispatch';
import { claimPage } from '../services/claimPage';
import { bindEvidence, clearUnresolved, createClaim, getClaim, listClaims, markUnresolved, unbindEvidence } from '../services/claims';

export const claimHandlers = {
  'claim:list': (s) => listClaims(s.context()),
  'claim:page': (s, req) => claimPage(s.context(), req),
  'claim:get': (s, req) => getClaim(s.context(), req.claimId),
  'claim:create': (s, req) => createClaim(s.context(), req),
  'claim:bind': (s, req) => bindEvidence(s.context(), req),
  'claim:unbind': (s, req) => unbindEvidence(s.context(), req),
  'claim:markUnresolved': (s, req) => markUnresolved(s.context(), req),
  'claim:clearUnresolved': (s, req) => clearUnresolved(s.context(), req),
} satisfies HandlersFor<'claim:list' | 'claim:page' | 'claim:get' | 'claim:create' | 'claim:bind' | 'claim:unbind' | 'claim:markUnresolved' | 'claim:clearUnresolved'>;
