import { chainHead, listReceipts, verifyChain } from '../audit/verify';
import type { HandlersFor } from '../dispatch';

export const auditHandlers = {
  'audit:verify': (s) => verifyChain(s.db()),
  'audit:head': (s) => chainHead(s.db()),
  'audit:list': (s, req) => ({ items: listReceipts(s.db(), req.limit, req.beforeSeq) }),
} satisfies HandlersFor<'audit:verify' | 'audit:head' | 'audit:list'>;
