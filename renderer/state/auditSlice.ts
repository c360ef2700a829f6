import type { ActorKeyView, ChainVerification, ReceiptView } from '../../shared/ipc/channels/audit';
import { call } from '../bridge';
import { actionErrorOf, messageOf, type ActionError, type Slice } from './slice';

export type SignatureMode = 'every' | 'run-ends';

/** Receipts per page of the audit table; older ones are fetched on request. */
export const RECEIPT_PAGE = 200;

export interface AuditSlice {
  receipts: ReceiptView[];
  /** More receipts exist before the oldest one listed. */
  moreReceipts: boolean;
  chain: ChainVerification | null;
  /** `erwb-head:<seq>:<hash>` of the chain as it is now (audit:head). */
  chainHead: string | null;
  actorKeys: ActorKeyView[];
  signatureMode: SignatureMode;
  /** The last "verify against a head" answer: the verification, or the refusal (malformed head). */
  headCheck: { expectedHead: string; result: ChainVerification } | { expectedHead: string; error: ActionError } | null;
  auditError: string | null;
  loadAudit: () => Promise<void>;
  loadOlderReceipts: () => Promise<void>;
  setSignatureMode: (mode: SignatureMode) => void;
  /** Verifies the chain against a head printed earlier: reports truncation or rewrite. */
  verifyAgainstHead: (expectedHead: string) => Promise<void>;
}

export const createAuditSlice: Slice<AuditSlice> = (set, get) => ({
  receipts: [],
  moreReceipts: false,
  chain: null,
  chainHead: null,
  actorKeys: [],
  signatureMode: 'every',
  headCheck: null,
  auditError: null,
  loadAudit: async () => {
    try {
      const [chain, list, head, keys] = await Promise.all([
        call('audit:verify', { signatures: get().signatureMode }),
        call('audit:list', { limit: RECEIPT_PAGE }),
        call('audit:head', {}),
        call('audit:keys', {}),
      ]);
      set({
        chain,
        receipts: list.items,
        moreReceipts: list.items.length === RECEIPT_PAGE && (list.items.at(-1)?.seq ?? 1) > 1,
        chainHead: head.head,
        actorKeys: keys.items,
        auditError: null,
      });
    } catch (err) {
      set({ auditError: messageOf(err) });
    }
  },
  loadOlderReceipts: async () => {
    const oldest = get().receipts.at(-1)?.seq;
    if (oldest === undefined || oldest <= 1) return;
    try {
      const { items } = await call('audit:list', { limit: RECEIPT_PAGE, beforeSeq: oldest });
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
});
