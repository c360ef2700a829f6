import { create } from 'zustand';
import { createCaseSlice } from './caseSlice';
import { createEvidenceSlice } from './evidenceSlice';
import { createEvidenceQueueSlice } from './evidenceQueueSlice';
import { createClaimsSlice } from './claimsSlice';
import { createAuditSlice } from './auditSlice';
import { createNavSlice } from './navSlice';
import { createGraphSlice } from './graphSlice';
import { createQueueSlice } from './queueSlice';
import { createRemediationSlice } from './remediationSlice';
import { createReviewSlice } from './reviewSlice';
import { createGateSlice } from './gateSlice';
import { createImportSlice } from './importSlice';
import type { WorkbenchState } from './types';

export const useWorkbench = create<WorkbenchState>()((...a) => ({
  ...createNavSlice(...a),
  ...createCaseSlice(...a),
  ...createEvidenceSlice(...a),
  ...createEvidenceQueueSlice(...a),
  ...createClaimsSlice(...a),
  ...createAuditSlice(...a),
  ...createGraphSlice(...a),
  ...createQueueSlice(...a),
  ...createRemediationSlice(...a),
  ...createReviewSlice(...a),
  ...createGateSlice(...a),
  ...createImportSlice(...a),
}));
