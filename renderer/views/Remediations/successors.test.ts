import { describe, expect, it } from 'vitest';
import type { RemediationView } from '../../../shared/ipc/channels/remediation';
import { defaultSuccessors, pickedSuccessors, uncoveredRequired } from './successors';

type Affected = RemediationView['affected'][number];
const affected = (bindingId: number, role: Affected['role'], successors: [string, boolean][]): Affected => ({
  bindingId,
  revisionId: `ev-${bindingId}@1`,
  title: 't',
  role,
  relation: 'FULL_SUPPORT',
  state: 'SUPERSEDED',
  why: 'SUPERSEDED',
  fenceId: 1,
  successors: successors.map(([revisionId, usable], i) => ({ revisionId, revision: i + 2, state: usable ? 'VALIDATED' : 'CANDIDATE', usable, reasons: usable ? [] : ['not validated'] })),
});

describe('successor picker', () => {
  const list = [
    affected(1, 'REQUIRED', [['ev-1@2', true], ['ev-1@3', true], ['ev-1@4', false]]),
    affected(2, 'SUPPORTING', [['ev-2@2', false]]),
    affected(3, 'REQUIRED', []),
  ];

  it('starts from the newest usable successor and never from an unusable one', () => {
    expect(defaultSuccessors(list)).toEqual({ 1: 'ev-1@3' });
  });

  it('sends the picks in binding order without blanks and names uncovered REQUIRED bindings', () => {
    const picks = { 1: 'ev-1@2', 2: '', 3: '' };
    expect(pickedSuccessors(list, picks)).toEqual(['ev-1@2']);
    expect(uncoveredRequired(list, picks)).toEqual(['ev-3@1']);
    expect(uncoveredRequired(list, { 1: 'ev-1@2', 3: 'ev-3@2' })).toEqual([]);
  });
});
