import type { ChainVerification, ReceiptView } from '../../shared/ipc/channels/audit';
import { call } from '../bridge';
import { messageOf, type Slice } from './slice';

export interface AuditSlice {
  receipts: ReceiptView[];
  chain: ChainVerification | null;
  auditError: string | null;
  loadAudit: () => Promise<void>;
}

export const createAuditSlice: Slice<AuditSlice> = (set) => ({
  receipts: [],
  chain: null,
  auditError: null,
  loadAudit: async () => {
    try {
      const [chain, list] = await Promise.all([call('audit:verify', {}), call('audit:list', { limit: 200 })]);
      set({ chain, receipts: list.items, auditError: null });
    } catch (err) {
      set({ auditError: messageOf(err) });
    }
  },
});
