import { describe, expect, it } from 'vitest';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import { countByState, filterEvidence } from './filter';

const rev = (id: string, over: Partial<RevisionSummary> = {}): RevisionSummary => ({
  revisionId: `${id}@1`,
  evidenceId: id,
  revision: 1,
  title: `title of ${id}`,
  kind: 'log_record',
  state: 'VALIDATED',
  tenant: 'acme',
  classification: 'internal',
  sourceType: 'auth_log',
  producer: 'connector',
  observedAt: null,
  contentSha256: '0'.repeat(64),
  ...over,
});

const items = [
  rev('ev-a'),
  rev('ev-b', { state: 'QUARANTINED', kind: 'threat_intel' }),
  rev('ev-c', { state: 'QUARANTINED', kind: 'log_record', producer: 'Feed-X' }),
  rev('ev-d', { state: 'DISPUTED', kind: 'tool_result' }),
];
const ids = (list: RevisionSummary[]) => list.map((r) => r.revisionId);

describe('filterEvidence', () => {
  it('keeps everything when no filter is set', () => {
    expect(ids(filterEvidence(items, { state: 'ALL', kind: 'ALL', text: '' }))).toEqual(['ev-a@1', 'ev-b@1', 'ev-c@1', 'ev-d@1']);
  });

  it('combines state and kind', () => {
    expect(ids(filterEvidence(items, { state: 'QUARANTINED', kind: 'ALL', text: '' }))).toEqual(['ev-b@1', 'ev-c@1']);
    expect(ids(filterEvidence(items, { state: 'QUARANTINED', kind: 'log_record', text: '' }))).toEqual(['ev-c@1']);
    expect(ids(filterEvidence(items, { state: 'REVOKED', kind: 'ALL', text: '' }))).toEqual([]);
  });

  it('matches text case-insensitively on id, title, source and producer', () => {
    expect(ids(filterEvidence(items, { state: 'ALL', kind: 'ALL', text: '  feed-x ' }))).toEqual(['ev-c@1']);
    expect(ids(filterEvidence(items, { state: 'ALL', kind: 'ALL', text: 'EV-D' }))).toEqual(['ev-d@1']);
  });
});

describe('countByState', () => {
  it('counts every lifecycle state in lifecycle order, zeros included', () => {
    expect(countByState(items)).toEqual([
      { state: 'CANDIDATE', count: 0 },
      { state: 'VALIDATED', count: 1 },
      { state: 'DISPUTED', count: 1 },
      { state: 'SUPERSEDED', count: 0 },
      { state: 'QUARANTINED', count: 2 },
      { state: 'REVOKED', count: 0 },
    ]);
  });
});
