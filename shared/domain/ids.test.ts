import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChosenName, EvidenceId, IsoTime, RevisionId } from './schemas';

/**
 * Issue 12.4: evidence:ingest accepted an evidence id containing '@', whose revision id (x@y@1)
 * failed the revision-id schema on every other channel: the item was stuck as CANDIDATE. One
 * grammar now: every evidence id the contract accepts makes a revision id it accepts, and only
 * those.
 */
describe('one id grammar', () => {
  it('every accepted evidence id, at every revision, is an accepted revision id', () => {
    const idChars = fc.constantFrom(...'abcXYZ019._:-@/ <>'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: idChars, minLength: 1, maxLength: 140 }), fc.integer({ min: 1, max: 999_999_999 }), (id, n) => {
        if (!EvidenceId.safeParse(id).success) return;
        expect(RevisionId.safeParse(`${id}@${n}`).success).toBe(true);
      }),
      { numRuns: 5000, seed: 20261201 },
    );
  });

  it("refuses '@' in an evidence id, and a revision id whose evidence id is not one", () => {
    expect(EvidenceId.safeParse('x@y').error?.issues[0]?.message).toContain("no '@'");
    expect(RevisionId.safeParse('x@y@1').success).toBe(false);
    expect(RevisionId.safeParse(`${'a'.repeat(121)}@1`).success).toBe(false);
    expect(RevisionId.safeParse(`${'a'.repeat(120)}@123456789`).success).toBe(true);
  });

  it('tells a user who typed a bad revision id what one looks like', () => {
    for (const bad of ['ev-1', 'ev-1@0', 'ev-1@x', '@1']) {
      expect(RevisionId.safeParse(bad).error?.issues[0]?.message, bad).toBe('expected <evidence_id>@<revision>');
    }
  });
});

describe('a time', () => {
  it('is ISO 8601 with its zone, and a bad one is answered with an example', () => {
    expect(IsoTime.safeParse('2026-11-20T03:12:44Z').success).toBe(true);
    expect(IsoTime.safeParse('2026-11-20T03:12:44+02:00').success).toBe(true);
    for (const bad of ['2026-11-20 03:12', '2026-11-20T03:12:44', 'yesterday']) {
      expect(IsoTime.safeParse(bad).error?.issues[0]?.message, bad).toBe('expected an ISO 8601 time with its zone, e.g. 2026-11-20T03:12:44Z');
    }
  });
});

describe('a chosen name', () => {
  it('is letters, digits and . _ : @ - from its first character to its last', () => {
    expect(ChosenName.safeParse('cl-ransom.2026:a@b_c').success).toBe(true);
    // '~' is reserved for the scope the case may append; a space or a slash anywhere is refused.
    for (const name of ['cl-1~acme', 'cl 1', 'cl/1', 'cl-1\n', '-cl']) {
      expect(ChosenName.safeParse(name).error?.issues[0]?.message, name).toBe("use letters, digits and . _ : @ - only ('~' is reserved)");
    }
  });
});
