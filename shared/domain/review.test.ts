import { describe, expect, it } from 'vitest';
import { quorumOutcome } from './quorum';
import { CHECKLIST_ITEMS, CHECKLIST_QUESTIONS, killReasonsOf, voteValidity, type Checklist } from './review';

const complete: Checklist = {
  supportedByQuote: true,
  contradictingEvidence: false,
  sourceQualityMatchesClaim: true,
  outdated: false,
  marketingOrForum: false,
};

describe('the review checklist', () => {
  it('asks every item as a question of its own', () => {
    const questions = CHECKLIST_ITEMS.map((item) => CHECKLIST_QUESTIONS[item]);
    for (const q of questions) expect(q).toMatch(/^[A-Z].{20,}\?$/);
    expect(new Set(questions).size).toBe(CHECKLIST_ITEMS.length);
  });
});

describe('voteValidity', () => {
  it('accepts a complete checklist with a reason', () => {
    expect(voteValidity({ checklist: complete, reason: 'quote matches the log line' })).toEqual({ valid: true, problems: [] });
  });

  it.each(CHECKLIST_ITEMS)('names the unanswered item %s', (item) => {
    const checklist: Partial<Record<(typeof CHECKLIST_ITEMS)[number], boolean | null>> = { ...complete, [item]: null };
    const result = voteValidity({ checklist, reason: 'r' });
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([`checklist incomplete: ${item} not answered`]);
  });

  it('refuses a blank reason', () => {
    expect(voteValidity({ checklist: complete, reason: '   ' })).toEqual({ valid: false, problems: ['no reason given'] });
  });
});

describe('killReasonsOf', () => {
  it('collects reasons of valid votes only and adds TOO_FEW_VALID_VOTES below the majority', () => {
    const votes = [
      { reviewer: 'a', refuted: false, valid: true, killReasons: ['SINGLE_SOURCE' as const] },
      { reviewer: 'b', refuted: null, valid: true, killReasons: ['FIGURE_NOT_REPRODUCIBLE' as const] },
      { reviewer: 'c', refuted: true, valid: false, killReasons: ['OUTDATED' as const] },
    ];
    const outcome = quorumOutcome(votes, 3);
    expect(outcome.tier).toBe('UNVERIFIED');
    expect(killReasonsOf(outcome, 3, votes)).toEqual(['SINGLE_SOURCE', 'FIGURE_NOT_REPRODUCIBLE', 'TOO_FEW_VALID_VOTES']);
  });

  it('gives none once the claim survived', () => {
    const votes = [
      { reviewer: 'a', refuted: false, valid: true, killReasons: ['SINGLE_SOURCE' as const] },
      { reviewer: 'b', refuted: false, valid: true, killReasons: [] },
    ];
    expect(killReasonsOf(quorumOutcome(votes, 3), 3, votes)).toEqual([]);
  });
});
