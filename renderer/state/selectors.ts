import type { WorkbenchState } from './store';

export const selectView = (s: WorkbenchState) => s.view;
export const selectCaseInfo = (s: WorkbenchState) => s.caseInfo;
export const selectCaseError = (s: WorkbenchState) => s.caseError;
export const selectActors = (s: WorkbenchState) => s.actors;
export const selectEvidence = (s: WorkbenchState) => s.evidence;
export const selectEvidenceError = (s: WorkbenchState) => s.evidenceError;
export const selectEvidenceFilter = (s: WorkbenchState) => s.evidenceFilter;
export const selectRevisionDetails = (s: WorkbenchState) => s.revisionDetails;
export const selectClaims = (s: WorkbenchState) => s.claims;
export const selectClaimDetails = (s: WorkbenchState) => s.claimDetails;
export const selectClaimsError = (s: WorkbenchState) => s.claimsError;
export const selectDecisions = (s: WorkbenchState) => s.decisions;
export const selectChain = (s: WorkbenchState) => s.chain;
export const selectReceipts = (s: WorkbenchState) => s.receipts;
export const selectSelectedRevisionId = (s: WorkbenchState) => s.selectedRevisionId;
export const selectGraphSelection = (s: WorkbenchState) => s.graphSelection;
export const selectShowUnboundEvidence = (s: WorkbenchState) => s.showUnboundEvidence;
export const selectSelectedDispute = (s: WorkbenchState) => s.selectedDispute;
export const selectSelectedQuarantined = (s: WorkbenchState) => s.selectedQuarantined;

/** Actions never change identity, so one shallow selector serves every component that needs them. */
export const selectActions = (s: WorkbenchState) => ({
  setView: s.setView,
  selectRevision: s.selectRevision,
  selectClaim: s.selectClaim,
  selectGraphNode: s.selectGraphNode,
  setShowUnboundEvidence: s.setShowUnboundEvidence,
  selectDispute: s.selectDispute,
  selectQuarantined: s.selectQuarantined,
  setEvidenceFilter: s.setEvidenceFilter,
  ensureRevisionDetails: s.ensureRevisionDetails,
  transitionRevision: s.transitionRevision,
  checkValidation: s.checkValidation,
  loadDecisions: s.loadDecisions,
  proposeDecision: s.proposeDecision,
  markUnresolved: s.markUnresolved,
});
