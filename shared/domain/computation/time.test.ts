import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysFromCivil, FIRST_INSTANT_MS, formatClock, formatInstant, LAST_INSTANT_MS, readTime } from './time';

// Date is the reference here only: the module computes the calendar itself so results never
// depend on the engine's Date parser or the machine's time zone.
const dateMs = (d: Date) => BigInt(d.getTime());
const anyInstant = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

describe('calendar', () => {
  it('agrees with Date.UTC on every day of years 0000 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
        const reference = new Date(0);
        reference.setUTCFullYear(y, m - 1, d);
        reference.setUTCHours(0, 0, 0, 0);
        expect(daysFromCivil(y, m, d) * 86_400_000).toBe(reference.getTime());
      }),
    );
  });

  it('formats every instant as Date.toISOString does, without .000', () => {
    fc.assert(
      fc.property(anyInstant, (d) => {
        expect(formatInstant(dateMs(d))).toBe(d.toISOString().replace('.000Z', 'Z'));
      }),
    );
  });

  it('reads back what it formats', () => {
    fc.assert(
      fc.property(anyInstant, (d) => {
        expect(readTime(formatInstant(dateMs(d)))).toEqual({ kind: 'instant', ms: dateMs(d) });
      }),
    );
  });

  it('bounds instants to four-digit years', () => {
    expect(formatInstant(FIRST_INSTANT_MS)).toBe('0000-01-01T00:00:00Z');
    expect(formatInstant(LAST_INSTANT_MS)).toBe('9999-12-31T23:59:59.999Z');
  });

  it('formats clock times with milliseconds only when there are some', () => {
    expect(formatClock(0n)).toBe('00:00:00');
    expect(formatClock(11_400_000n)).toBe('03:10:00');
    expect(formatClock(86_399_999n)).toBe('23:59:59.999');
    expect(formatClock(11_400_050n)).toBe('03:10:00.050');
  });

  it('tells a non-time from a malformed time', () => {
    expect(readTime('12')).toEqual({ kind: 'not-a-time' });
    expect(readTime('22 MB')).toEqual({ kind: 'not-a-time' });
    expect(readTime('2026-03-01T03:10').kind).toBe('invalid');
    expect(readTime('12:3').kind).toBe('invalid');
  });
});
