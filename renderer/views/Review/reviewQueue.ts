import type { ChecklistItem, KillReason } from '../../../shared/domain/review';
import { KILL_REASONS } from '../../../shared/domain/review';
import type { ReviewFilter } from '../../../shared/ipc/channels/review';

/** The queue's filters as the chips name them; what each keeps is the store's rule (shared/ipc/reviewQueue.ts). */
export const REVIEW_FILTERS: { filter: ReviewFilter; label: string }[] = [
  { filter: 'all', label: 'All' },
  { filter: 'mine', label: 'Awaiting me' },
  { filter: 'action', label: 'Needs action' },
  { filter: 'quorum', label: 'Quorum' },
  { filter: 'settled', label: 'Settled' },
];

/** For each checklist question, the answer that speaks against the claim (shown as a concern). */
export const CONCERN_ANSWER: Record<ChecklistItem, boolean> = {
  supportedByQuote: false,
  contradictingEvidence: true,
  sourceQualityMatchesClaim: false,
  outdated: true,
  marketingOrForum: true,
};

export const CHECKLIST_SHORT: Record<ChecklistItem, string> = {
  supportedByQuote: 'Quote',
  contradictingEvidence: 'Contradicted',
  sourceQualityMatchesClaim: 'Source fits',
  outdated: 'Outdated',
  marketingOrForum: 'Mkt / forum',
};

/** Kill reasons a reviewer names; TOO_FEW_VALID_VOTES is the quorum's own finding, never a vote's. */
export const VOTER_KILL_REASONS: KillReason[] = KILL_REASONS.filter((r) => r !== 'TOO_FEW_VALID_VOTES');

export const refutedLabel = (refuted: boolean | null): string => (refuted === null ? 'ABSTAIN' : refuted ? 'REFUTED' : 'NOT REFUTED');
