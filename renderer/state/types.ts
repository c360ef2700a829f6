// The shape of the workbench store: every slice's state and actions, and the store they make up.
// It lives apart from the slices because each slice's creator is typed by the whole store
// (actions call get().refreshAll()), so the slices import this module and it imports none of them.
import type { StateCreator } from 'zustand';
import type { EvidenceKind, LifecycleState } from '../../shared/domain/enums';
import type { ActorView, RevisionSummary } from '../../shared/domain/schemas';
import type { ActorKeyView, ChainVerification, ReceiptView } from '../../shared/ipc/channels/audit';
import type { CaseInfo } from '../../shared/ipc/channels/case';
import type { ClaimDetail } from '../../shared/ipc/channels/claims';
import type { ImportProgress } from '../../shared/ipc/channels/importJobs';
import type { DrillReport } from '../../shared/ipc/channels/drill';
import type { EvidenceCounts, EvidenceDetail, EvidenceSort } from '../../shared/ipc/channels/evidence';
import type { RemediationView } from '../../shared/ipc/channels/remediation';
import type { ClaimReview } from '../../shared/ipc/channels/review';
import type { RevocationStatus } from '../../shared/ipc/channels/revocation';
import type { RequestOf, ResponseOf } from '../../shared/ipc/contract';
import type { ErrorCode, IssueDetail } from '../../shared/ipc/envelope';

export type WorkbenchState = CaseSlice &
  EvidenceSlice &
  EvidenceQueueSlice &
  ClaimsSlice &
  AuditSlice &
  NavSlice &
  GraphSlice &
  QueueSlice &
  RemediationSlice &
  ReviewSlice &
  GateSlice &
  ImportSlice;

/** A slice creator: builds its part of the store and may read or set any other part. */
export type Slice<T> = StateCreator<WorkbenchState, [], [], T>;

/**
 * What a refused action shows the analyst: the handler's own message, its code and the zod issue
 * paths, so "reason: a reason is required" points at the field instead of a generic failure.
 */
export interface ActionError {
  code: ErrorCode | 'CLIENT';
  message: string;
  issues: IssueDetail[];
}

export type View = 'cases' | 'dashboard' | 'intake' | 'graph' | 'timeline' | 'evidence' | 'review' | 'disputes' | 'quarantine' | 'remediations' | 'whatif' | 'audit';

export interface NavSlice {
  view: View;
  selectedRevisionId: string | null;
  selectedClaimId: string | null;
  setView: (view: View) => void;
  selectRevision: (revisionId: string | null) => void;
  selectClaim: (claimId: string | null) => void;
  /** The revisions the What-if view pretends revoked (nothing is written). */
  whatIfRevisions: string[];
  setWhatIfRevisions: (revisionIds: string[]) => void;
  /** Opens the What-if view pretending these revisions revoked. */
  openWhatIf: (revisionIds: string[]) => void;
  /** The last propagation drill run on this case in this window: its figures join the dashboard's metrics. */
  lastDrill: DrillReport | null;
  setLastDrill: (report: DrillReport | null) => void;
}

export interface CaseSlice {
  caseInfo: CaseInfo | null;
  /** Counts the times refreshAll has read the case again: a view reading on its own reads again when it moves. */
  refreshes: number;
  actors: ActorView[];
  recent: { path: string; name: string; openedAt: string }[];
  caseError: string | null;
  loadCase: () => Promise<void>;
  openCase: (path: string) => Promise<void>;
  createCase: (request: RequestOf<'case:create'>) => Promise<boolean>;
  /** Why the last unlock was refused (wrong passphrase, no key on this machine). */
  unlockError: string | null;
  /** Unlocks a reviewer's key in this window; true when this window now acts as them. */
  unlock: (actorId: string, passphrase: string) => Promise<boolean>;
  /** Locks this window: its reviewer's key is dropped in the main process. */
  lock: () => Promise<void>;
  /** Reloads everything a change of case or actor can affect (ACL changes what is visible). */
  refreshAll: () => Promise<void>;
}

export interface EvidenceFilter {
  state: LifecycleState | 'ALL';
  kind: EvidenceKind | 'ALL';
  /** Case-insensitive match on revision id, title, source type and producer. */
  text: string;
  sort: EvidenceSort;
}

/** The Evidence view's queue: pages read as the list scrolls, filtered, ordered and counted by the store. */
export interface EvidenceQueue {
  items: RevisionSummary[];
  nextCursor: string | null;
  counts: EvidenceCounts | null;
  loading: boolean;
  /** Why the last page could not be read; the rows already shown stay. */
  error: string | null;
}

export interface EvidenceQueueSlice {
  evidenceFilter: EvidenceFilter;
  /** The case the filter was recalled for: another case recalls its own. */
  evidenceFilterCase: string | null;
  evidenceQueue: EvidenceQueue;
  /** Changes the filter or order, remembers it for this case on this machine, and reads the first page. */
  setEvidenceFilter: (patch: Partial<EvidenceFilter>) => Promise<void>;
  /** Reads the first page (and the counts) again; recalls this case's filter first if the case changed. */
  loadEvidenceQueue: () => Promise<void>;
  /** Reads the next page, unless one is being read or none is left. */
  loadMoreEvidence: () => Promise<void>;
  /** Validates the selected revisions, each receipted, all or none; on success everything is reloaded. */
  validateEvidence: (items: { revisionId: string; from: LifecycleState }[], reason: string) => Promise<ResponseOf<'evidence:validateMany'> | ActionError>;
}

export interface EvidenceSlice {
  /** Full revisions (content, context, history) fetched on demand, keyed by revision id: the most recent few. */
  revisionDetails: Record<string, EvidenceDetail>;
  evidenceError: string | null;
  /** Revisions asked for that are not there for the acting reviewer (NOT_FOUND): shown as such, not as loading. */
  goneRevisions: ReadonlySet<string>;
  /** Reads the kept details again (after a change): a stale one never shows; one no longer visible is dropped. */
  refreshRevisionDetails: () => Promise<void>;
  /** Fetches the detail of each listed revision that is not cached yet. */
  ensureRevisionDetails: (revisionIds: readonly string[]) => Promise<void>;
  /** Asks the service for a lifecycle move; on success everything it can affect is reloaded. */
  transitionRevision: (request: RequestOf<'evidence:transition'>) => Promise<ActionError | null>;
  /** Dry run of the validation checklist: what a move to VALIDATED would find, writing nothing. */
  checkValidation: (revisionId: string) => Promise<ResponseOf<'evidence:validate'> | ActionError>;
  /** Records that two revisions flagged as probable copies are independent sources; reloads what it affects. */
  confirmIndependent: (request: RequestOf<'evidence:confirmIndependent'>) => Promise<ActionError | null>;
}

export interface ClaimsSlice {
  /** Details of the claims a view has opened (claim:get): the most recent few, loaded on demand. Lists page through claim:page. */
  claimDetails: Record<string, ClaimDetail>;
  claimsError: string | null;
  /** Reads the kept details again (after a change); one no longer visible is dropped. */
  refreshClaimDetails: () => Promise<void>;
  /** Loads the details of these claims unless loaded (or loading) already. */
  ensureClaimDetails: (claimIds: readonly string[]) => Promise<void>;
  /** Records that the claim cannot be decided: its status becomes UNRESOLVED. */
  markUnresolved: (claimId: string, reason: string) => Promise<ActionError | null>;
}

export type SignatureMode = 'every' | 'run-ends';

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
  /** Verifies (routinely: from where this machine last verified) and reloads the chain's receipts and keys. */
  loadAudit: () => Promise<void>;
  /** Verifies the whole chain and every row, not only what came after the last verification. */
  verifyFully: () => Promise<void>;
  loadOlderReceipts: () => Promise<void>;
  setSignatureMode: (mode: SignatureMode) => void;
  /** Verifies the chain against a head printed earlier: reports truncation or rewrite. */
  verifyAgainstHead: (expectedHead: string) => Promise<void>;
}

export type GraphSelection = { kind: 'claim'; id: string } | { kind: 'revision'; id: string };

export type GraphFocus = RequestOf<'graph:neighbourhood'>['focus'];
export type GraphNeighbourhood = ResponseOf<'graph:neighbourhood'>;

export type GraphLimit = 250 | 1000;

export interface GraphSlice {
  graphSelection: GraphSelection | null;
  /** Evidence no claim is bound to is noise in most reviews; the analyst opts in. */
  showUnboundEvidence: boolean;
  /** Nodes a neighbourhood may hold (GRAPH_LIMITS): the default reads well, the larger is an overview. */
  graphLimit: GraphLimit;
  /** Where the analyst has been, oldest first; the last is the focus the graph shows (breadcrumbs). */
  graphTrail: GraphFocus[];
  /** Nodes (claim:<id>, rev:<id>) whose neighbours the analyst added at this focus, in order. */
  graphExpanded: string[];
  /** The neighbourhood drawn (graph:neighbourhood); null before the first read. */
  graph: GraphNeighbourhood | null;
  /** Why the last read failed: shown with a retry, never as an empty graph. */
  graphError: string | null;
  graphLoading: boolean;
  selectGraphNode: (selection: GraphSelection | null) => void;
  setShowUnboundEvidence: (show: boolean) => Promise<void>;
  setGraphLimit: (limit: GraphLimit) => Promise<void>;
  /** Reads the neighbourhood of the current focus with its expansions. */
  loadGraph: () => Promise<void>;
  /** Opens the graph on a new focus (a step on the trail). */
  focusGraph: (focus: GraphFocus) => Promise<void>;
  /** Back along the trail: to the crumb at `index`, or one step. */
  graphBack: (index?: number) => Promise<void>;
  expandGraphNode: (node: string) => Promise<void>;
  collapseGraphNode: (node: string) => Promise<void>;
}

/** A dispute queue entry: a MIXED claim or a DISPUTED revision. */
export type DisputeKey = `claim:${string}` | `revision:${string}`;

export interface QueueSlice {
  selectedDispute: DisputeKey | null;
  selectedQuarantined: string | null;
  selectDispute: (key: DisputeKey | null) => void;
  selectQuarantined: (revisionId: string | null) => void;
}

/** The remediation queue and revocation convergence (DESIGN §3.5–3.6). */
export interface RemediationSlice {
  remediations: RemediationView[];
  revocationStatus: RevocationStatus | null;
  remediationError: string | null;
  selectedRemediation: number | null;
  loadRemediations: () => Promise<void>;
  /** Convergence progress only: cheap enough to poll while the view is open. */
  loadRevocationStatus: () => Promise<void>;
  selectRemediation: (remediationId: number | null) => void;
  /** Processes outbox jobs now instead of waiting for the background worker. */
  runRevocationWorker: () => Promise<ActionError | null>;
  retainCurrentRevision: (request: RequestOf<'remediation:retainCurrentRevision'>) => Promise<ActionError | null>;
  requestRereview: (request: RequestOf<'remediation:requestRereview'>) => Promise<ActionError | null>;
  withdrawRemediated: (request: RequestOf<'remediation:withdraw'>) => Promise<ActionError | null>;
}

/**
 * Review of claims (DESIGN §3.4): each claim's decisions with their fingerprints,
 * and the quorum votes. The service decides everything (four eyes, staleness, quorum); this slice
 * carries what the reviewer saw to it and shows its answer, refusals included.
 */
export interface ReviewSlice {
  /** Full reviews (decisions, basis, quorum) of the claims a view has shown, keyed by claim id. The queue itself is read a page at a time by the Review view (review:page). */
  reviews: Record<string, ClaimReview>;
  reviewError: string | null;
  selectedReviewClaim: string | null;
  /** Reads every review already on screen again; drops those no longer readable. */
  refreshReviews: () => Promise<void>;
  loadReview: (claimId: string) => Promise<void>;
  selectReviewClaim: (claimId: string | null) => void;
  /** Opens the Review view on a claim (from the graph, a dispute, a blocker). */
  openReview: (claimId: string) => void;
  /** Proposes a verdict with its rationale; another reviewer approves it (four eyes). */
  proposeDecision: (request: RequestOf<'decision:propose'>) => Promise<ActionError | null>;
  /** Carries the fingerprint the reviewer saw: a stale one is refused with CONFLICT. */
  approveDecision: (claimId: string, request: RequestOf<'decision:approve'>) => Promise<ActionError | null>;
  rejectDecision: (claimId: string, request: RequestOf<'decision:reject'>) => Promise<ActionError | null>;
  withdrawDecision: (claimId: string, request: RequestOf<'decision:withdraw'>) => Promise<ActionError | null>;
  /** A quorum vote on the basis fingerprint the reviewer looked at. */
  castVote: (request: RequestOf<'review:vote'>) => Promise<ActionError | null>;
}

type GateStatus = ResponseOf<'case:gate'>;
type FinalizeResult = ResponseOf<'case:finalize'>;

/** The completion gate (DESIGN §3.4): what keeps the case from FINAL, and finalizing it. */
export interface ImportSlice {
  /** This window's import: running, or how it ended (until dismissed). */
  importJob: ImportProgress | null;
  /** Why an import could not start or be followed (the file was refused before a job existed). */
  importError: ActionError | null;
  /** Imports a dropped or picked file, or a path on this machine. */
  startImport: (source: File | string) => Promise<void>;
  cancelImport: () => Promise<void>;
  dismissImport: () => void;
}

export interface GateSlice {
  gate: GateStatus | null;
  gateError: string | null;
  /** The answer of the last finalize attempt in this session: FINAL with its head, DRAFT with blockers, or a refusal. */
  finalizeOutcome: { result: FinalizeResult } | { error: ActionError } | null;
  loadGate: () => Promise<void>;
  finalizeCase: () => Promise<void>;
  /** An admin makes a FINAL case DRAFT again, with a reason; refusals come back for the form. */
  reopenCase: (reason: string) => Promise<ActionError | null>;
}
