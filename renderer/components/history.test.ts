import { describe, expect, it } from 'vitest';
import type { Transition } from '../../shared/domain/schemas';
import { latestEntryInto, referencedRevision } from './history';

const t = (from: Transition['from'], to: Transition['to'], reason: string): Transition => ({
  from,
  to,
  reason,
  actor: 'priya.s',
  at: '2026-11-20T10:00:00Z',
  supportingRef: null,
});

describe('latestEntryInto', () => {
  const history = [
    t(null, 'QUARANTINED', 'quarantined on ingest: instruction to ignore previous instructions'),
    t('QUARANTINED', 'CANDIDATE', 'false positive'),
    t('CANDIDATE', 'QUARANTINED', 'second look: hash mismatch'),
  ];

  it('returns the most recent move into the state', () => {
    expect(latestEntryInto(history, 'QUARANTINED')?.reason).toBe('second look: hash mismatch');
    expect(latestEntryInto(history, 'CANDIDATE')?.reason).toBe('false positive');
  });

  it('returns null when the revision never entered the state', () => {
    expect(latestEntryInto(history, 'DISPUTED')).toBeNull();
    expect(latestEntryInto([], 'QUARANTINED')).toBeNull();
  });
});

describe('referencedRevision', () => {
  it('recognises exact revision refs only', () => {
    expect(referencedRevision('ev-fw-001@1')).toBe('ev-fw-001@1');
    expect(referencedRevision(' ev-fw-001@12 ')).toBe('ev-fw-001@12');
    expect(referencedRevision('ticket:IR-2231')).toBeNull();
    expect(referencedRevision('ev-fw-001@0')).toBeNull();
    expect(referencedRevision(null)).toBeNull();
  });
});
