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
export const selectChain = (s: WorkbenchState) => s.chain;
export const selectReceipts = (s: WorkbenchState) => s.receipts;
export const selectRefreshAll = (s: WorkbenchState) => s.refreshAll;
export const selectActorId = (s: WorkbenchState) => s.caseInfo?.actor.actorId ?? null;
export const selectReviewQueue = (s: WorkbenchState) => s.reviewQueue;
export const selectReviews = (s: WorkbenchState) => s.reviews;
export const selectReviewError = (s: WorkbenchState) => s.reviewError;
export const selectSelectedReviewClaim = (s: WorkbenchState) => s.selectedReviewClaim;
export const selectGate = (s: WorkbenchState) => s.gate;
export const selectGateError = (s: WorkbenchState) => s.gateError;
export const selectFinalizeOutcome = (s: WorkbenchState) => s.finalizeOutcome;
/** The audit view's data in one shallow selector. */
export const selectAuditView = (s: WorkbenchState) => ({
  chain: s.chain,
  chainHead: s.chainHead,
  receipts: s.receipts,
  moreReceipts: s.moreReceipts,
  actorKeys: s.actorKeys,
  signatureMode: s.signatureMode,
  headCheck: s.headCheck,
  auditError: s.auditError,
});
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
  markUnresolved: s.markUnresolved,
});

export const selectReviewActions = (s: WorkbenchState) => ({
  loadReviews: s.loadReviews,
  loadReview: s.loadReview,
  selectReviewClaim: s.selectReviewClaim,
  openReview: s.openReview,
  proposeDecision: s.proposeDecision,
  approveDecision: s.approveDecision,
  rejectDecision: s.rejectDecision,
  withdrawDecision: s.withdrawDecision,
  castVote: s.castVote,
});

export const selectAuditActions = (s: WorkbenchState) => ({
  loadAudit: s.loadAudit,
  loadOlderReceipts: s.loadOlderReceipts,
  setSignatureMode: s.setSignatureMode,
  verifyAgainstHead: s.verifyAgainstHead,
});

export const selectGateActions = (s: WorkbenchState) => ({ loadGate: s.loadGate, finalizeCase: s.finalizeCase });
