import { quorumMajority, type QuorumOutcome } from './quorum';

/**
 * The quorum review checklist and kill reasons (DESIGN §3.4, seed 003). A vote counts only when
 * every checklist question was answered and a reason was written: a bare "looks fine" is exactly
 * the rubber stamp the quorum exists to prevent.
 */
export const CHECKLIST_ITEMS = [
  'supportedByQuote',
  'contradictingEvidence',
  'sourceQualityMatchesClaim',
  'outdated',
  'marketingOrForum',
] as const;
export type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];
export type Checklist = Record<ChecklistItem, boolean>;

/** The question each checklist item answers, as the UI should ask it. */
export const CHECKLIST_QUESTIONS: Record<ChecklistItem, string> = {
  supportedByQuote: 'Is the claim supported by the quoted evidence itself?',
  contradictingEvidence: 'Is there evidence contradicting the claim?',
  sourceQualityMatchesClaim: 'Does the quality of the sources match the strength of the claim?',
  outdated: 'Is the evidence outdated for the claim?',
  marketingOrForum: 'Does the claim rest on marketing material or forum posts?',
};

/** Why a claim that did not survive review stays UNVERIFIED, recorded with the votes. */
export const KILL_REASONS = [
  'SINGLE_SOURCE',
  'FIGURE_NOT_REPRODUCIBLE',
  'QUOTE_NOT_IN_SOURCE',
  'CONTRADICTING_EVIDENCE',
  'SOURCE_TOO_WEAK',
  'OUTDATED',
  'MARKETING_OR_FORUM',
  'TOO_FEW_VALID_VOTES',
] as const;
export type KillReason = (typeof KILL_REASONS)[number];

export function voteValidity(vote: {
  checklist: Partial<Record<ChecklistItem, boolean | null>>;
  reason: string;
}): { valid: boolean; problems: string[] } {
  const problems: string[] = [];
  const unanswered = CHECKLIST_ITEMS.filter((item) => typeof vote.checklist[item] !== 'boolean');
  if (unanswered.length) problems.push(`checklist incomplete: ${unanswered.join(', ')} not answered`);
  if (vote.reason.trim().length === 0) problems.push('no reason given');
  return { valid: problems.length === 0, problems };
}

/**
 * Kill reasons of an UNVERIFIED outcome: those the valid votes named, plus TOO_FEW_VALID_VOTES when
 * the majority of valid votes was never reached. Other tiers have none: VERIFIED survived and
 * REFUTED is explained by its refutations.
 */
export function killReasonsOf(
  outcome: QuorumOutcome,
  size: number,
  votes: readonly { valid: boolean; killReasons: readonly KillReason[] }[],
): KillReason[] {
  if (outcome.tier !== 'UNVERIFIED') return [];
  const named = new Set<KillReason>(votes.filter((v) => v.valid).flatMap((v) => v.killReasons));
  if (outcome.validVotes < quorumMajority(size)) named.add('TOO_FEW_VALID_VOTES');
  return KILL_REASONS.filter((r) => named.has(r));
}
