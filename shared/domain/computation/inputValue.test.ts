import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInputValue } from './inputValue';
import { rational } from './rational';
import { failure } from './testing';
import { UNIT_NAMES } from './units';
import { formatValue, numberValue, quantityValue } from './values';

const read = (quote: string, expectedUnit?: string) => formatValue(parseInputValue(quote, expectedUnit));

describe('parseInputValue reads what analysts quote', () => {
  it.each([
    ['3', '3'],
    ['12400', '12400'],
    ['12,400', '12400'],
    ['1,234,567', '1234567'],
    ['10 000', '10000'],
    ['10\u00a0000', '10000'],
    ['10\u202f000', '10000'],
    ['10\u2009000.5', '10000.5'],
    ['0.5', '0.5'],
    ['-3', '-3'],
    ['\u22123', '-3'],
    ['+3', '3'],
    ['  7  ', '7'],
    ['45%', '0.45'],
    ['45 %', '0.45'],
    ['12.5%', '0.125'],
    ['3/5', '0.6'],
    ['1/3', '1/3'],
    ['-2/6', '-1/3'],
    ['22 MB', '22 MB'],
    ['22MB', '22 MB'],
    ['1.5 GiB', '1.5 GiB'],
    ['1,024 KiB', '1024 KiB'],
    ['5 kB', '5 KB'],
    ['512 bytes', '512 B'],
    ['2 Gigabytes', '2 GB'],
    ['30 minutes', '30 min'],
    ['30 min', '30 min'],
    ['30 mins', '30 min'],
    ['1 minute', '1 min'],
    ['2 hours', '2 h'],
    ['2 hrs', '2 h'],
    ['1.5h', '1.5 h'],
    ['45 seconds', '45 s'],
    ['250 ms', '250 ms'],
    ['3 days', '3 d'],
    ['1/3 h', '1/3 h'],
    ['03:10', '03:10:00'],
    ['3:10', '03:10:00'],
    ['03:10 UTC', '03:10:00'],
    ['03:10Z', '03:10:00'],
    ['03:10:15', '03:10:15'],
    ['03:10:15.250', '03:10:15.250'],
    ['2026-03-01T03:10:00Z', '2026-03-01T03:10:00Z'],
    ['2026-03-01T03:10Z', '2026-03-01T03:10:00Z'],
    ['2026-03-01 03:10:00 UTC', '2026-03-01T03:10:00Z'],
    ['2026-03-01T03:10:00.120Z', '2026-03-01T03:10:00.120Z'],
    ['2026-03-01T03:10:00.123000Z', '2026-03-01T03:10:00.123Z'],
    ['2026-03-01T05:10:00+02:00', '2026-03-01T03:10:00Z'],
    ['2026-03-01T00:10:00-01:00', '2026-03-01T01:10:00Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['true', 'true'],
    ['Yes', 'true'],
    ['FALSE', 'false'],
    ['no', 'false'],
  ])('%j reads as %s', (quote, text) => {
    expect(read(quote)).toBe(text);
  });

  it('keeps exact values', () => {
    expect(parseInputValue('45%')).toEqual(numberValue(rational(9n, 20n)));
    expect(parseInputValue('1.5 GiB')).toEqual(quantityValue(rational(3n, 2n), 'GiB'));
  });
});

describe('parseInputValue with an expected unit', () => {
  it.each([
    ['22', 'MB', '22 MB'],
    ['22 MB', 'MB', '22 MB'],
    ['1.5 GiB', 'MiB', '1536 MiB'],
    ['90 seconds', 'min', '1.5 min'],
    ['1 KB', 'KiB', '0.9765625 KiB'],
  ])('%j as %s reads as %s', (quote, unit, text) => {
    expect(read(quote, unit)).toBe(text);
  });

  it.each([
    ['22 MB', 'min', 'input', '"22 MB" is a data size (MB), not a duration in min at column 1; quote a number or a duration'],
    ['45%', 'MB', 'input', '"45%" is a number, not a data size in MB'],
    ['03:10', 's', 'input', '"03:10" is a clock time, not a duration in s'],
    ['yes', 'MB', 'input', '"yes" is a boolean, not a data size in MB'],
    ['22', 'mb', 'unknown-unit', 'unknown expected unit "mb" at column 1; did you mean "MB"?'],
  ])('refuses %j as %s', (quote, unit, code, message) => {
    const error = failure(() => parseInputValue(quote, unit));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});

describe('parseInputValue refuses what it cannot read unambiguously', () => {
  it.each([
    ['', 'input', 1, 'the quote is empty at column 1; expected a number (12,400 or 0.5), a quantity (22 MB, 30 min), a percentage (45%), a clock time (03:10 UTC), an instant (2026-03-01T03:10:00Z) or true/false'],
    ['about twelve', 'input', 1, 'cannot read "about twelve" as a value at column 1; expected a number'],
    ['  x', 'input', 3, 'cannot read "x" as a value at column 3'],
    ['1,2', 'input', 2, '"1,2" is not a number: "," here is neither a thousands separator nor a decimal point at column 2'],
    ['1,2345', 'input', 2, 'thousands go in groups of three (12,400)'],
    ['12,400,00', 'input', 7, 'neither a thousands separator nor a decimal point'],
    ['1.2.3', 'input', 4, '"." here is neither'],
    ['10 0000', 'input', 4, '"10 0000" is not one number: a space separates thousands only in groups of three at column 4'],
    ['3 5', 'input', 3, 'is not one number'],
    ['10 m', 'unknown-unit', 4, '"m" could mean minutes or metres at column 4; quote or type "min" for minutes'],
    ['22 mb', 'unknown-unit', 4, 'unknown unit "mb" at column 4; did you mean "MB"? (units are case-sensitive)'],
    ['22 Mb', 'unknown-unit', 4, 'unknown unit "Mb"'],
    ['3 hosts', 'unknown-unit', 3, 'unknown unit "hosts" at column 3; the units are: B, KB, MB'],
    ['1/0', 'input', 1, '"1/0" divides by zero'],
    ['25:00', 'input', 1, '25:00 is not a time of day (00:00:00 to 23:59:59)'],
    ['03:60', 'input', 1, 'is not a time of day'],
    ['03:10 CET', 'input', 1, '"03:10 CET" is not a time'],
    ['2026-03-01', 'input', 1, '2026-03-01 is a date, not an instant at column 1; add a time and a zone, as in 2026-03-01T00:00:00Z'],
    ['2026-03-01T03:10:00', 'input', 1, 'has no time zone at column 1; add Z for UTC (2026-03-01T03:10:00Z) or an offset such as +02:00'],
    ['2026-13-01T03:10:00Z', 'input', 1, '2026-13-01 is not a calendar date'],
    ['2025-02-29T03:10:00Z', 'input', 1, '2025-02-29 is not a calendar date'],
    ['2026-03-01T03:10:60Z', 'input', 1, 'is not a time of day'],
    ['2026-03-01T03:10:00+24:00', 'input', 1, '+24:00 is not a UTC offset'],
    ['2026-03-01T03:10:00.0001Z', 'input', 1, '.0001 is finer than a millisecond'],
    ['0000-01-01T00:00:00+00:01', 'input', 1, 'falls outside the years 0000 to 9999'],
    [`1${'0'.repeat(160)}`, 'range', 1, 'needs more than 512 bits to be exact at column 1; quote a smaller value'],
    ['1'.repeat(201), 'limit', 201, 'the quote is 201 characters long, more than 200'],
  ])('%j', (quote, code, column, message) => {
    const error = failure(() => parseInputValue(quote));
    expect(error).toMatchObject({ code, column });
    expect(error.message).toContain(message);
  });
});

describe('formatValue text reads back as the same value', () => {
  const amount = fc
    .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 12n }))
    .map(([num, den]) => rational(num, den));

  it('for every number', () => {
    fc.assert(
      fc.property(amount, (a) => {
        const v = numberValue(a);
        expect(parseInputValue(formatValue(v))).toEqual(v);
      }),
    );
  });

  it('for every quantity', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...UNIT_NAMES), (a, unit) => {
        const v = quantityValue(a, unit);
        expect(parseInputValue(formatValue(v))).toEqual(v);
      }),
    );
  });

  it('for quoted numbers and quantities with thousands separators, decimals and percent', () => {
    const grouped = fc.tuple(fc.integer({ min: 1, max: 999 }), fc.array(fc.integer({ min: 0, max: 999 }), { maxLength: 4 }), fc.constantFrom(',', ' ', '\u00a0'));
    const quote = fc.tuple(grouped, fc.option(fc.stringMatching(/^[0-9]{1,6}$/)), fc.constantFrom('', '%', ' MB', 'GiB', ' minutes', ' h'));
    fc.assert(
      fc.property(quote, ([[head, groups, sep], fraction, suffix]) => {
        const text = [String(head), ...groups.map((g) => String(g).padStart(3, '0'))].join(sep) + (fraction === null ? '' : `.${fraction}`) + suffix;
        const v = parseInputValue(text);
        expect(parseInputValue(formatValue(v))).toEqual(v);
      }),
    );
  });

  it('for instants and clock times', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString();
        const instant = parseInputValue(iso);
        expect(formatValue(instant)).toBe(iso.endsWith('.000Z') ? iso.replace('.000Z', 'Z') : iso);
        expect(parseInputValue(formatValue(instant))).toEqual(instant);
        const clock = parseInputValue(iso.slice(11, 23));
        expect(parseInputValue(formatValue(clock))).toEqual(clock);
      }),
    );
  });
});
