import { create } from 'zustand';
import { createCaseSlice, type CaseSlice } from './caseSlice';
import { createEvidenceSlice, type EvidenceSlice } from './evidenceSlice';
import { createClaimsSlice, type ClaimsSlice } from './claimsSlice';
import { createAuditSlice, type AuditSlice } from './auditSlice';
import { createNavSlice, type NavSlice } from './navSlice';
import { createGraphSlice, type GraphSlice } from './graphSlice';
import { createQueueSlice, type QueueSlice } from './queueSlice';
import { createRemediationSlice, type RemediationSlice } from './remediationSlice';
import { createReviewSlice, type ReviewSlice } from './reviewSlice';
import { createGateSlice, type GateSlice } from './gateSlice';

export type WorkbenchState = CaseSlice & EvidenceSlice & ClaimsSlice & AuditSlice & NavSlice & GraphSlice & QueueSlice & RemediationSlice & ReviewSlice & GateSlice;

export const useWorkbench = create<WorkbenchState>()((...a) => ({
  ...createNavSlice(...a),
  ...createCaseSlice(...a),
  ...createEvidenceSlice(...a),
  ...createClaimsSlice(...a),
  ...createAuditSlice(...a),
  ...createGraphSlice(...a),
  ...createQueueSlice(...a),
  ...createRemediationSlice(...a),
  ...createReviewSlice(...a),
  ...createGateSlice(...a),
}));
