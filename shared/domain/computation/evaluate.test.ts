import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { parseExpression } from './parse';
import { integer } from './rational';
import { run, runFailure } from './testing';
import { booleanValue, numberValue } from './values';

describe('the issue 14 examples', () => {
  it('12,400 records at 10,000 per batch need 2 batches', () => {
    expect(run('ceil(records / batch_size)', { records: '12,400', batch_size: '10,000' })).toBe('2');
  });

  it('22 MB left between 03:10 and 03:40: the window is 30 min', () => {
    const quotes = { left: '22 MB', start: '03:10', end: '03:40 UTC' };
    expect(run('end - start', quotes)).toBe('30 min');
    expect(run('left / ((end - start) / 1 min)', quotes)).toBe('11/15 MB');
    expect(run('left in KB', quotes)).toBe('22000 KB');
  });

  it('3 of 5 hosts show the implant', () => {
    const hosts = new Map([true, false, true, true, false].map((shows, i) => [`host${i + 1}`, booleanValue(shows)]));
    expect(evaluate(parseExpression('count(host1, host2, host3, host4, host5)'), hosts)).toEqual(numberValue(integer(3)));
    const quoted = { h1: 'yes', h2: 'no', h3: 'yes', h4: 'true', h5: 'false' };
    expect(run('count(h1, h2, h3, h4, h5)', quoted)).toBe('3');
    expect(run('count(h1, h2, h3, h4, h5) / 5 >= 0.5', quoted)).toBe('true');
  });
});

describe('arithmetic, exactly', () => {
  it.each([
    ['0.1 + 0.2 == 0.3', 'true'],
    ['0.1 + 0.2', '0.3'],
    ['1 / 3', '1/3'],
    ['-2 / 3', '-2/3'],
    ['7 / 3', '7/3'],
    ['1 / 8', '0.125'],
    ['-1 / 8', '-0.125'],
    ['1 / 3 * 3', '1'],
    ['2 - 5', '-3'],
    ['--2', '2'],
    ['2 * -3', '-6'],
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['12 / 4 / 3', '1'],
    ['10 - 4 - 3', '3'],
    ['0.50', '0.5'],
    ['007', '7'],
  ])('%s = %s', (text, result) => {
    expect(run(text)).toBe(result);
  });
});

describe('functions', () => {
  it.each([
    ['ceil(12400 / 10000)', '2'],
    ['floor(12400 / 10000)', '1'],
    ['ceil(-1.5)', '-1'],
    ['floor(-1.5)', '-2'],
    ['ceil(2)', '2'],
    ['round(2.5)', '3'],
    ['round(-2.5)', '-3'],
    ['round(2.49)', '2'],
    ['round(-2.51)', '-3'],
    ['abs(-4 / 3)', '4/3'],
    ['min(3, 1, 2)', '1'],
    ['max(3, 1, 2)', '3'],
    ['min(7)', '7'],
    ['sum(1, 2, 3.5)', '6.5'],
    ['count(1 < 2, 2 < 1, true)', '2'],
    ['count(false)', '0'],
    ['ceil(1.2 MiB)', '2 MiB'],
    ['round(90 s in min)', '2 min'],
    ['abs(-3 h)', '3 h'],
    ['sum(1 KiB, 1024 B)', '2 KiB'],
    ['min(1 KiB, 1000 B)', '0.9765625 KiB'],
    ['max(1 KB, 1 KiB)', '1.024 KB'],
    ['min(time("03:10"), time("02:00"))', '02:00:00'],
    ['max(time("2026-03-01T00:00:00Z"), time("2026-02-01T00:00:00Z"))', '2026-03-01T00:00:00Z'],
  ])('%s = %s', (text, result) => {
    expect(run(text)).toBe(result);
  });
});

describe('units', () => {
  it.each([
    ['1536 KiB in MiB', '1.5 MiB'],
    ['to(1536 KiB, "MiB")', '1.5 MiB'],
    ['1 GiB in MB', '1073.741824 MB'],
    ['1 min in h', '1/60 h'],
    ['90 min in h', '1.5 h'],
    ['1 d in ms', '86400000 ms'],
    ['1 KB in KiB in KB', '1 KB'],
    ['22 MB + 500 KB', '22.5 MB'],
    ['500 KB + 22 MB', '22500 KB'],
    ['2 * 30 min', '60 min'],
    ['30min * 2', '60 min'],
    ['1 h / 4', '0.25 h'],
    ['1 h / 30 min', '2'],
    ['1 KiB == 1024 B', 'true'],
    ['1 KB < 1 KiB', 'true'],
    ['60 s >= 1 min', 'true'],
    ['-2 MB', '-2 MB'],
    ['1 h - 90 min', '-0.5 h'],
  ])('%s = %s', (text, result) => {
    expect(run(text)).toBe(result);
  });
});

describe('times', () => {
  it.each([
    ['time("2026-03-01T03:40:00Z") - time("2026-03-01T03:10:00Z")', '30 min'],
    ['time("2026-03-02T00:00:00Z") - time("2026-03-01T00:00:00Z")', '1 d'],
    ['time("2026-03-01T03:10:00Z") - time("2026-03-01T03:40:00Z")', '-30 min'],
    ['time("03:40") - time("03:10:01")', '1799 s'],
    ['time("03:10:00.5") - time("03:10:00")', '500 ms'],
    ['time("03:10") - time("03:10")', '0 s'],
    ['time("2026-03-01T03:10:00Z") + 30 min', '2026-03-01T03:40:00Z'],
    ['30 min + time("2026-03-01T03:10:00Z")', '2026-03-01T03:40:00Z'],
    ['time("2026-03-01T00:10:00Z") - 1 h', '2026-02-28T23:10:00Z'],
    ['time("2024-02-28T12:00:00Z") + 1 d', '2024-02-29T12:00:00Z'],
    ['time("03:10") + 1.5 s', '03:10:01.500'],
    ['time("2026-03-01T05:10:00+02:00")', '2026-03-01T03:10:00Z'],
    ['time("03:10") < time("03:40")', 'true'],
    ['time("2026-03-01T03:10:00Z") == time("2026-03-01 03:10 UTC")', 'true'],
  ])('%s = %s', (text, result) => {
    expect(run(text)).toBe(result);
  });
});

describe('booleans', () => {
  it.each([
    ['1 < 2 and 2 < 3', 'true'],
    ['1 < 2 and 3 < 2', 'false'],
    ['1 > 2 or 2 < 3', 'true'],
    ['not 1 > 2', 'true'],
    ['not not true', 'true'],
    ['true == false', 'false'],
    ['true != false', 'true'],
    ['false or true and false', 'false'],
    ['(false or true) and true', 'true'],
    ['1 != 1', 'false'],
    ['2 <= 2', 'true'],
  ])('%s = %s', (text, result) => {
    expect(run(text)).toBe(result);
  });
});

describe('errors say what failed, where, and what to do', () => {
  it.each([
    ['x / (y - 2)', { x: '1', y: '2' }, 'division-by-zero', 3, 'division by zero: the divisor "(y - 2)" is 0 at column 3; check the inputs, or compare the divisor with 0 first'],
    ['1 MB / 0', {}, 'division-by-zero', 6, 'division by zero: the divisor "0" is 0'],
    ['1 MB / (0 KB)', {}, 'division-by-zero', 6, 'the divisor "(0 KB)" is 0'],
    ['2 MB + 3 min', {}, 'type', 6, 'cannot add a data size (MB) and a duration (min) at column 6; both sides need the same dimension'],
    ['2 MB - 3 min', {}, 'type', 6, 'cannot subtract a data size (MB) and a duration (min)'],
    ['2 + 3 MB', {}, 'type', 3, 'cannot add a number and a data size (MB) at column 3; a number has no unit; give it one, as in 2 MB'],
    ['3 MB - 2', {}, 'type', 6, 'cannot subtract a data size (MB) and a number'],
    ['2 MB * 3 MB', {}, 'type', 6, 'cannot multiply a data size (MB) by a data size (MB) at column 6; there are no compound units'],
    ['2 MB / 3 min', {}, 'type', 6, 'there are no compound units such as MB/min'],
    ['2 / 3 min', {}, 'type', 3, 'a number divided by a quantity has no unit here'],
    ['2 MB < 3', {}, 'type', 6, 'cannot compare a data size (MB) with a number'],
    ['2 MB < 3 min', {}, 'type', 6, 'cannot compare a data size (MB) with a duration (min)'],
    ['true < false', {}, 'type', 6, 'booleans are only equal or not'],
    ['1 == true', {}, 'type', 3, 'cannot compare a number with a boolean'],
    ['2 in MB', {}, 'type', 3, 'cannot convert a number to MB at column 3; a number has no unit to convert; give it one, as in x * 1 MB'],
    ['2 MB in min', {}, 'type', 6, 'cannot convert a data size (MB) to min'],
    ['to(2 h, "KB")', {}, 'type', 1, 'cannot convert a duration (h) to KB'],
    ['1 and true', {}, 'type', 3, '"and" needs two booleans, not a number and a boolean'],
    ['not 1', {}, 'type', 1, '"not" needs a boolean, not a number'],
    ['-true', {}, 'type', 1, 'cannot negate a boolean'],
    ['ceil(true)', {}, 'type', 1, 'ceil needs a number or a quantity, not a boolean'],
    ['count(true, 2)', {}, 'type', 13, 'count needs booleans, but "2" is a number at column 13'],
    ['sum(1, 2 MB)', {}, 'type', 8, 'sum needs arguments of one kind, like its first (a number), but "2 MB" is a data size (MB)'],
    ['sum(1 MB, 2 min)', {}, 'type', 11, 'like its first (a data size (MB)), but "2 min" is a duration (min)'],
    ['max(1, true)', {}, 'type', 8, 'max needs numbers, quantities or times, but "true" is a boolean'],
    ['min(time("03:10"), time("2026-03-01T00:00:00Z"))', {}, 'type', 20, 'like its first (a clock time)'],
    ['a + b', { a: '03:10', b: '03:20' }, 'type', 3, 'cannot add a clock time and a clock time at column 3; subtract two instants or two clock times'],
    ['a - b', { a: '2026-03-01T03:10:00Z', b: '03:20' }, 'type', 3, 'cannot subtract an instant and a clock time'],
    ['30 min - a', { a: '03:10' }, 'type', 8, 'cannot subtract a duration (min) and a clock time'],
    ['a + 2 MB', { a: '03:10' }, 'type', 3, 'cannot add a clock time and a data size (MB)'],
    ['a * 2', { a: '03:10' }, 'type', 3, 'cannot multiply a clock time by a number'],
    ['true + 1', {}, 'type', 6, 'use count(...) to count true values'],
    ['time("03:10") + 1 / 3 * 1 ms', {}, 'type', 15, '1/3 ms is not a whole number of milliseconds at column 15; round it first'],
    ['time("23:50") + 30 min', {}, 'range', 15, 'leaves the day (00:00:00 to 23:59:59.999) at column 15; use instants (with their dates) for spans that cross midnight'],
    ['time("9999-12-31T23:00:00Z") + 2 h', {}, 'range', 30, 'falls outside the years 0000 to 9999'],
  ])('%s', (text, quotes, code, column, message) => {
    const error = runFailure(text, quotes);
    expect(error).toMatchObject({ code, column });
    expect(error.message).toContain(message);
  });

  it('names an unknown input and lists the bound ones', () => {
    const error = runFailure('ceil(records / bacthes)', { records: '12,400', batch_size: '10,000' });
    expect(error).toMatchObject({ code: 'unknown-name', column: 16 });
    expect(error.message).toBe('unknown name "bacthes" at column 16; the inputs are: records, batch_size');
  });

  it('says so when no input is bound at all', () => {
    expect(runFailure('x').message).toBe('unknown name "x" at column 1; no inputs are bound; add one from the evidence');
  });

  it('evaluates both sides of and/or, so an input value never hides a type error', () => {
    expect(runFailure('false and 1').code).toBe('type');
    expect(runFailure('true or x').code).toBe('unknown-name');
  });
});

describe('magnitude bounds keep evaluation cheap', () => {
  const big = `1${'0'.repeat(150)}`; // 10^150 < 2^512

  it('accepts values up to 2^512', () => {
    expect(run(`${big} * 1`)).toBe(big);
  });

  it('refuses a product past 2^512 at its operator', () => {
    // 10^150 * 10^150 = 10^300 > 2^512: the first product is refused.
    const error = runFailure(`${big} * ${big} * 1`);
    expect(error).toMatchObject({ code: 'range', column: big.length + 2 });
    expect(error.message).toContain('needs more than 512 bits to be exact');
    expect(error.message).toContain('round an intermediate value');
  });

  it('refuses a literal past 2^512 while parsing', () => {
    expect(runFailure(`1${'0'.repeat(160)}`)).toMatchObject({ code: 'range', column: 1 });
  });

  it('refuses a fraction whose denominator grows past 2^512', () => {
    expect(runFailure(`1 / ${big} / (${big} + 1)`)).toMatchObject({ code: 'range', column: big.length + 6 });
  });
});
