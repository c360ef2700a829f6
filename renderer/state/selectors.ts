// Every selector of the workbench store, as module-level constants so their identity is stable.
// A selector that returns an object is read through useShallow: `useWorkbench(useShallow(selectX))`.
import type { WorkbenchState } from './types';

export const selectView = (s: WorkbenchState) => s.view;
export const selectActorId = (s: WorkbenchState) => s.caseInfo?.actor?.actorId ?? null;
export const selectCasePath = (s: WorkbenchState) => s.caseInfo?.path ?? null;
export const selectClaimDetails = (s: WorkbenchState) => s.claimDetails;
export const selectRefreshAll = (s: WorkbenchState) => s.refreshAll;
export const selectReviews = (s: WorkbenchState) => s.reviews;
export const selectReviewError = (s: WorkbenchState) => s.reviewError;
export const selectSelectedReviewClaim = (s: WorkbenchState) => s.selectedReviewClaim;
export const selectGate = (s: WorkbenchState) => s.gate;
export const selectGateError = (s: WorkbenchState) => s.gateError;
export const selectFinalizeOutcome = (s: WorkbenchState) => s.finalizeOutcome;
export const selectRemediations = (s: WorkbenchState) => s.remediations;
export const selectRevocationStatus = (s: WorkbenchState) => s.revocationStatus;
export const selectRemediationError = (s: WorkbenchState) => s.remediationError;
export const selectSelectedRemediation = (s: WorkbenchState) => s.selectedRemediation;

/** The status bar: case, chain and gate at a glance. */
export const selectStatusBar = (s: WorkbenchState) => ({ caseInfo: s.caseInfo, chain: s.chain, caseError: s.caseError, gate: s.gate });

export const selectLoadErrors = (s: WorkbenchState) => ({ evidenceError: s.evidenceError, claimsError: s.claimsError, refreshAll: s.refreshAll });

export const selectCasesView = (s: WorkbenchState) => ({ caseInfo: s.caseInfo, actors: s.actors, recent: s.recent, caseError: s.caseError });

export const selectUnlock = (s: WorkbenchState) => ({ caseInfo: s.caseInfo, actors: s.actors, unlockError: s.unlockError, unlock: s.unlock });

export const selectEvidenceView = (s: WorkbenchState) => ({
  queue: s.evidenceQueue,
  filter: s.evidenceFilter,
  selectedId: s.selectedRevisionId,
  details: s.revisionDetails,
  gone: s.goneRevisions,
});

export const selectGraphView = (s: WorkbenchState) => ({
  graph: s.graph,
  graphError: s.graphError,
  graphLoading: s.graphLoading,
  trail: s.graphTrail,
  showUnbound: s.showUnboundEvidence,
  limit: s.graphLimit,
  selection: s.graphSelection,
});

export const selectGraphActions = (s: WorkbenchState) => ({ loadGraph: s.loadGraph, focusGraph: s.focusGraph, graphBack: s.graphBack, setGraphLimit: s.setGraphLimit });

export const selectGraphSidePanel = (s: WorkbenchState) => ({
  graph: s.graph,
  claimDetails: s.claimDetails,
  details: s.revisionDetails,
  selection: s.graphSelection,
});

export const selectDisputesView = (s: WorkbenchState) => ({
  claimDetails: s.claimDetails,
  details: s.revisionDetails,
  selected: s.selectedDispute,
});

export const selectQuarantineView = (s: WorkbenchState) => ({ details: s.revisionDetails, selected: s.selectedQuarantined });

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
  loadEvidenceQueue: s.loadEvidenceQueue,
  loadMoreEvidence: s.loadMoreEvidence,
  ensureRevisionDetails: s.ensureRevisionDetails,
  ensureClaimDetails: s.ensureClaimDetails,
  transitionRevision: s.transitionRevision,
  checkValidation: s.checkValidation,
  confirmIndependent: s.confirmIndependent,
  markUnresolved: s.markUnresolved,
});

export const selectCaseActions = (s: WorkbenchState) => ({ openCase: s.openCase, createCase: s.createCase, unlock: s.unlock, lock: s.lock });

export const selectReviewActions = (s: WorkbenchState) => ({
  refreshReviews: s.refreshReviews,
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
  verifyFully: s.verifyFully,
  loadOlderReceipts: s.loadOlderReceipts,
  setSignatureMode: s.setSignatureMode,
  verifyAgainstHead: s.verifyAgainstHead,
});

export const selectGateActions = (s: WorkbenchState) => ({ loadGate: s.loadGate, finalizeCase: s.finalizeCase, reopenCase: s.reopenCase });

export const selectRemediationActions = (s: WorkbenchState) => ({
  loadRemediations: s.loadRemediations,
  loadRevocationStatus: s.loadRevocationStatus,
  selectRemediation: s.selectRemediation,
  runRevocationWorker: s.runRevocationWorker,
  retainCurrentRevision: s.retainCurrentRevision,
  requestRereview: s.requestRereview,
  withdrawRemediated: s.withdrawRemediated,
});

export const selectLockState = (s: WorkbenchState) => ({
  locked: s.caseInfo !== null && s.caseInfo.actor === null,
  idleLockMinutes: s.caseInfo?.idleLockMinutes ?? null,
  loadCase: s.loadCase,
  lock: s.lock,
});
