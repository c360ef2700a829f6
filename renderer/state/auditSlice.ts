import { call } from '../bridge';
import { actionErrorOf, messageOf } from './actionError';
import { latestRead } from './latestRead';
import type { AuditSlice, Slice } from './types';

/** Receipts per page of the audit table; older ones are fetched on request. */
const RECEIPT_PAGE = 200;

export const createAuditSlice: Slice<AuditSlice> = (set, get) => {
  const auditReads = latestRead();
  return {
    receipts: [],
    moreReceipts: false,
    chain: null,
    chainHead: null,
    actorKeys: [],
    signatureMode: 'every',
    headCheck: null,
    auditError: null,
    loadAudit: async () => {
      const current = auditReads.begin();
      try {
        const [chain, list, head, keys] = await Promise.all([
          call('audit:verify', { signatures: get().signatureMode }),
          call('audit:list', { limit: RECEIPT_PAGE }),
          call('audit:head', {}),
          call('audit:keys', {}),
        ]);
        if (!current()) return;
        set({
          chain,
          receipts: list.items,
          moreReceipts: list.items.length === RECEIPT_PAGE && (list.items.at(-1)?.seq ?? 1) > 1,
          chainHead: head.head,
          actorKeys: keys.items,
          auditError: null,
        });
      } catch (err) {
        if (current()) set({ auditError: messageOf(err) });
      }
    },
    verifyFully: async () => {
      set({ chain: null });
      try {
        set({ chain: await call('audit:verify', { signatures: get().signatureMode, full: true }), auditError: null });
      } catch (err) {
        set({ auditError: messageOf(err) });
      }
    },
    loadOlderReceipts: async () => {
      const oldest = get().receipts.at(-1)?.seq;
      if (oldest === undefined || oldest <= 1) return;
      const current = auditReads.follow();
      try {
        const { items } = await call('audit:list', { limit: RECEIPT_PAGE, beforeSeq: oldest });
        if (!current()) return;
        set((s) => ({ receipts: [...s.receipts, ...items], moreReceipts: items.length === RECEIPT_PAGE && (items.at(-1)?.seq ?? 1) > 1 }));
      } catch (err) {
        set({ auditError: messageOf(err) });
      }
    },
    setSignatureMode: (signatureMode) => set({ signatureMode }),
    verifyAgainstHead: async (expectedHead) => {
      const head = expectedHead.trim();
      try {
        const result = await call('audit:verify', { expectedHead: head, signatures: get().signatureMode });
        set({ headCheck: { expectedHead: head, result } });
      } catch (err) {
        set({ headCheck: { expectedHead: head, error: actionErrorOf(err) } });
      }
    },
  };
};
