import { describe, expect, it } from 'vitest';
import type { BindingView, ClaimSummary, RevisionSummary } from '../../../shared/domain/schemas';
import { claimSides, currentEntry, disputeQueue } from './disputeQueue';

const claim = (claimId: string, status: ClaimSummary['status']): ClaimSummary => ({
  claimId,
  statement: claimId,
  generation: 1,
  status,
  author: 'omar.h',
  support: { all: 1, independent: 1 },
  partialSupport: { all: 0, independent: 0 },
  refute: { all: 1, independent: 1 },
  missingKinds: [],
  bindings: [],
});
const rev = (revisionId: string, state: RevisionSummary['state']): RevisionSummary => ({
  revisionId,
  evidenceId: revisionId.split('@')[0]!,
  revision: 1,
  title: revisionId,
  kind: 'tool_result',
  state,
  tenant: 'acme',
  classification: 'internal',
  sourceType: 'dlp',
  producer: 'dlp',
  observedAt: null,
  contentSha256: 'b'.repeat(64),
});
let id = 1;
const bind = (revisionId: string, relation: BindingView['relation']): BindingView => ({
  bindingId: id++,
  claimId: 'cl',
  generation: 1,
  revisionId,
  relation,
  role: 'SUPPORTING',
  rationale: '',
  createdBy: 'omar.h',
  createdAt: '2026-11-20T10:00:00Z',
});

describe('disputeQueue', () => {
  it('queues MIXED claims, then DISPUTED revisions, and nothing else', () => {
    const queue = disputeQueue(
      [claim('cl-a', 'SUPPORTED'), claim('cl-ps', 'MIXED'), claim('cl-b', 'REFUTED'), claim('cl-x', 'MIXED')],
      [rev('ev-1@1', 'VALIDATED'), rev('ev-dlp@1', 'DISPUTED'), rev('ev-q@1', 'QUARANTINED')],
    );
    expect(queue.map((e) => e.key)).toEqual(['claim:cl-ps', 'claim:cl-x', 'revision:ev-dlp@1']);
  });

  it('holds the revisions back until every MIXED claim is read, so no row moves while paging', () => {
    const claims = [claim('cl-ps', 'MIXED')];
    const revisions = [rev('ev-dlp@1', 'DISPUTED')];
    expect(disputeQueue(claims, revisions, false).map((e) => e.key)).toEqual(['claim:cl-ps']);
    expect(disputeQueue(claims, revisions, true).map((e) => e.key)).toEqual(['claim:cl-ps', 'revision:ev-dlp@1']);
  });

  it('is empty when nothing is in dispute', () => {
    expect(disputeQueue([claim('cl-a', 'INSUFFICIENT')], [rev('ev-1@1', 'VALIDATED')])).toEqual([]);
  });
});

describe('claimSides', () => {
  it('puts support and refutation side by side and context on neither side', () => {
    const sides = claimSides([
      bind('ev-c@1', 'CONTEXT_ONLY'),
      bind('ev-p@1', 'PARTIAL_SUPPORT'),
      bind('ev-r2@1', 'REFUTES'),
      bind('ev-f@1', 'FULL_SUPPORT'),
      bind('ev-r1@1', 'REFUTES'),
      bind('ev-u@1', 'UNKNOWN'),
      bind('ev-i@1', 'IRRELEVANT'),
    ]);
    expect(sides.supporting.map((b) => b.revisionId)).toEqual(['ev-f@1', 'ev-p@1']);
    expect(sides.refuting.map((b) => b.revisionId)).toEqual(['ev-r1@1', 'ev-r2@1']);
    expect(sides.other.map((b) => b.revisionId)).toEqual(['ev-c@1', 'ev-u@1', 'ev-i@1']);
  });
});

describe('currentEntry', () => {
  const queue = disputeQueue([claim('cl-ps', 'MIXED')], [rev('ev-dlp@1', 'DISPUTED')]);
  it('keeps the chosen entry while it is queued and falls back to the first when it leaves', () => {
    expect(currentEntry(queue, 'revision:ev-dlp@1')?.key).toBe('revision:ev-dlp@1');
    expect(currentEntry(queue, 'claim:gone')?.key).toBe('claim:cl-ps');
    expect(currentEntry(queue, null)?.key).toBe('claim:cl-ps');
    expect(currentEntry([], null)).toBeNull();
  });
});
