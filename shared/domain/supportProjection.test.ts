import { describe, expect, it } from 'vitest';
import type { BindingRole } from './enums';
import { pendingReason, supportProjection, type ProjectionBinding } from './supportProjection';

const b = (ref: string, role: BindingRole, usable: boolean, stale = false): ProjectionBinding => ({
  revisionRef: ref,
  role,
  usable,
  unusableBecause: usable ? [] : ['revision is REVOKED, not VALIDATED'],
  stale,
});

describe('supportProjection', () => {
  it.each([
    ['nothing bound', [], 'ELIGIBLE'],
    ['every REQUIRED and SUPPORTING revision usable', [b('r1', 'REQUIRED', true), b('s1', 'SUPPORTING', true)], 'ELIGIBLE'],
    ['only CONTEXT lost', [b('r1', 'REQUIRED', true), b('c1', 'CONTEXT', false)], 'ELIGIBLE'],
    ['a SUPPORTING revision lost', [b('r1', 'REQUIRED', true), b('s1', 'SUPPORTING', false)], 'PARTIALLY_SUPPORTED'],
    ['a REQUIRED revision lost', [b('r1', 'REQUIRED', false), b('s1', 'SUPPORTING', false)], 'BLOCKED'],
    ['a stale derived revision, even beside a lost REQUIRED one', [b('r1', 'REQUIRED', false), b('d1', 'SUPPORTING', true, true)], 'PENDING_REVALIDATION'],
    ['a stale CONTEXT revision does not matter', [b('c1', 'CONTEXT', true, true)], 'ELIGIBLE'],
  ] as const)('%s → %s', (_name, bindings, expected) => {
    expect(supportProjection(bindings).projection).toBe(expected);
  });

  it('gives the same reasons in any binding order and names revisions through the caller', () => {
    const list = [b('r1', 'REQUIRED', false), b('s1', 'SUPPORTING', false)];
    const hide = (ref: string) => (ref === 'r1' ? 'a revision outside your clearance' : ref);
    const forward = supportProjection(list, hide);
    expect(supportProjection([...list].reverse(), hide)).toEqual(forward);
    expect(forward.reasons.join(' ')).not.toContain('r1');
    expect(forward.reasons).toContain('REQUIRED a revision outside your clearance is not usable (revision is REVOKED, not VALIDATED)');
  });

  it('still says a lost revision is not usable when the caller recorded no reason', () => {
    const lost = { revisionRef: 's1', role: 'SUPPORTING' as const, usable: false, unusableBecause: [], stale: false };
    expect(supportProjection([lost]).reasons).toEqual(['SUPPORTING s1 is not usable (unknown reason)']);
  });

  it('names every reason a revision was lost, and says when nothing is bound', () => {
    const lost = { revisionRef: 'r1', role: 'REQUIRED' as const, usable: false, unusableBecause: ['revision is DISPUTED, not VALIDATED', 'expired at 2026-11-01T00:00:00Z'], stale: false };
    expect(supportProjection([lost]).reasons).toEqual(['REQUIRED r1 is not usable (revision is DISPUTED, not VALIDATED; expired at 2026-11-01T00:00:00Z)']);
    expect(supportProjection([]).reasons).toEqual(['no REQUIRED or SUPPORTING evidence is bound; nothing to lose']);
  });

  it('says why revalidation is pending, for a fence on the revision and one derived from another', () => {
    expect(pendingReason('ev-1@2', 'REVOKED')).toBe('evidence it rests on (ev-1@2) was REVOKED; revalidation is pending');
    expect(pendingReason('ev-1@2', 'DERIVED')).toBe(
      'evidence it rests on (ev-1@2) is derived from evidence taken out of normal flows (revoked, superseded, quarantined or disputed); revalidation is pending',
    );
  });
});
