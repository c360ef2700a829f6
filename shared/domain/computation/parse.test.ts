import { describe, expect, it } from 'vitest';
import { isInputName, referencedNames } from './expression';
import { LIMITS, parseExpression } from './parse';
import { failure } from './testing';

const parseFailure = (text: string) => failure(() => parseExpression(text));

describe('parseExpression: syntax errors name the column and the fix', () => {
  it.each([
    ['', 'syntax', 1, 'the expression is empty at column 1; write one, e.g. ceil(records / batch_size)'],
    ['1 +', 'syntax', 4, 'the expression ends too early at column 4; finish it with a number, a name or "("'],
    ['(1 + 2', 'syntax', 7, 'the expression ends too early at column 7; add the ")" that closes the "(" at column 1'],
    ['1 + 2)', 'syntax', 6, 'unexpected ")" at column 6; remove it or add the matching "("'],
    ['1 2', 'syntax', 3, 'unexpected "2" at column 3; join the parts with an operator such as + or *'],
    ['12,400 / 10', 'syntax', 3, 'unexpected "," at column 3; commas only separate function arguments; write numbers without thousands separators (12400)'],
    ['a = 2', 'syntax', 3, 'unexpected character "=" at column 3; write == to compare'],
    ['a && b', 'syntax', 3, 'unexpected character "&" at column 3; write "and"'],
    ['a || b', 'syntax', 3, 'write "or"'],
    ['!a', 'syntax', 1, 'write "not" (or != to compare)'],
    ['.5', 'syntax', 1, 'a decimal point needs digits on both sides, as in 0.5'],
    ['2 ^ 3', 'syntax', 3, 'there is no power operator'],
    ['50 % 3', 'syntax', 4, 'there is no percent operator; divide by 100'],
    ["to(x, 'MB')", 'syntax', 7, 'strings use double quotes'],
    ['x € 2', 'syntax', 3, 'unexpected character "€" at column 3'],
    ['a < b < c', 'syntax', 7, 'comparisons do not chain; join them with "and", as in a < b and b < c'],
    ['"MB"', 'syntax', 1, 'a string is not a value at column 1'],
    ['to(x, "MB', 'syntax', 7, 'the string is not closed at column 7; end it with " on the same line'],
    ['and', 'syntax', 1, '"and" is a keyword; a value must come first'],
    ['x in', 'syntax', 5, '"in" needs a unit after it'],
    ['x in 2', 'syntax', 6, '"in" needs a unit after it'],
    ['min()', 'syntax', 1, 'min takes 1 to 64 arguments, not 0'],
    ['ceil(1, 2)', 'syntax', 1, 'ceil takes exactly 1 argument, not 2'],
    ['min(1 2)', 'syntax', 7, 'separate the arguments of min with "," and close them with ")"'],
    ['sum(1, "MB")', 'syntax', 8, 'sum does not take a string'],
    ['to(x)', 'syntax', 1, 'to takes a value and a unit string at column 1; write to(x, "MB") or x in MB'],
    ['to(x, MB)', 'syntax', 1, 'to takes a value and a unit string'],
    ['time(3)', 'syntax', 1, 'time takes one string'],
    ['time("soon")', 'syntax', 7, '"soon" is not a time at column 7'],
    ['time("2026-03-01")', 'syntax', 7, '2026-03-01 is a date, not an instant at column 7; add a time and a zone, as in 2026-03-01T00:00:00Z'],
    ['time("2026-03-01T03:10:00")', 'syntax', 7, 'has no time zone at column 7; add Z for UTC'],
    ['time("2026-02-30T03:10:00Z")', 'syntax', 7, '2026-02-30 is not a calendar date'],
    ['time("25:10")', 'syntax', 7, '25:10 is not a time of day'],
  ])('%j', (text, code, column, message) => {
    const error = parseFailure(text);
    expect(error).toMatchObject({ code, column });
    expect(error.message).toContain(message);
  });

  it.each([
    ['foo(1)', 'unknown-function', 1, 'unknown function "foo" at column 1; the functions are: abs, ceil, count, floor, max, min, round, sum, time, to'],
    ['1 + Ceil(x)', 'unknown-function', 5, 'unknown function "Ceil"'],
    ['2 mb', 'unknown-unit', 3, 'unknown unit "mb" at column 3; did you mean "MB"? (units are case-sensitive); to multiply, write *'],
    ['2 x', 'unknown-unit', 3, 'unknown unit "x" at column 3; the units are: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, ms, s, min, h, d; to multiply, write *'],
    ['1e3', 'unknown-unit', 2, 'exponents are not supported; write the number out (1000, not 1e3)'],
    ['12_400', 'unknown-unit', 3, 'digit separators are not supported'],
    ['x in megabytes', 'unknown-unit', 6, 'unknown unit "megabytes"'],
    ['to(x, "mib")', 'unknown-unit', 8, 'unknown unit "mib" at column 8; did you mean "MiB"?'],
  ])('%j', (text, code, column, message) => {
    const error = parseFailure(text);
    expect(error).toMatchObject({ code, column });
    expect(error.message).toContain(message);
  });
});

describe('parseExpression: limits', () => {
  it('accepts 2000 characters and refuses 2001', () => {
    const padded = (n: number) => `1${' '.repeat(n - 1)}`;
    expect(() => parseExpression(padded(LIMITS.textLength))).not.toThrow();
    const error = parseFailure(padded(LIMITS.textLength + 1));
    expect(error).toMatchObject({ code: 'limit', column: 2001 });
    expect(error.message).toBe('the expression is 2001 characters long, more than 2000 at column 2001; split it into several computations');
  });

  it('accepts 64 nested parentheses and refuses 65', () => {
    const nested = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;
    expect(() => parseExpression(nested(64))).not.toThrow();
    const error = parseFailure(nested(65));
    expect(error).toMatchObject({ code: 'limit', column: 65 });
    expect(error.message).toContain('nests deeper than 64 levels');
  });

  it('counts prefix operators and calls as nesting, so no text can overflow the stack', () => {
    expect(parseFailure('-'.repeat(65) + '1')).toMatchObject({ code: 'limit', column: 65 });
    expect(parseFailure('not '.repeat(65) + 'true')).toMatchObject({ code: 'limit', column: 257 });
    expect(parseFailure('abs('.repeat(65) + '1' + ')'.repeat(65))).toMatchObject({ code: 'limit' });
    expect(parseFailure('-'.repeat(1999) + '1')).toMatchObject({ code: 'limit' });
  });

  it('accepts 500 nodes and refuses 501', () => {
    const sum = (terms: number) => Array.from({ length: terms }, () => '1').join('+');
    expect(() => parseExpression(sum(250))).not.toThrow(); // 250 literals + 249 additions
    const error = parseFailure(sum(251)); // 251 + 250
    expect(error).toMatchObject({ code: 'limit' });
    expect(error.message).toContain('more than 500 terms');
  });

  it('accepts 64 arguments and refuses 65', () => {
    const call = (n: number) => `sum(${Array.from({ length: n }, () => '1').join(', ')})`;
    expect(() => parseExpression(call(64))).not.toThrow();
    const error = parseFailure(call(65));
    expect(error).toMatchObject({ code: 'limit', column: 1 });
    expect(error.message).toContain('sum has more than 64 arguments');
  });

  it('accepts 64-character names and refuses 65', () => {
    expect(() => parseExpression('a'.repeat(64))).not.toThrow();
    expect(parseFailure(`1 + ${'a'.repeat(65)}`)).toMatchObject({ code: 'limit', column: 5 });
  });
});

describe('referencedNames', () => {
  it('lists each input once, in order of first appearance', () => {
    expect(referencedNames(parseExpression('ceil(records / batch_size) + records'))).toEqual(['records', 'batch_size']);
    expect(referencedNames(parseExpression('count(h1, h2, not h3) + sum(-a, b in MB) == 2 and (x) < to(y, "s")'))).toEqual(['h1', 'h2', 'h3', 'a', 'b', 'x', 'y']);
  });

  it('does not count units, functions, keywords or literals as names', () => {
    expect(referencedNames(parseExpression('min(2 MB in KB, to(3 min, "s") / 1 s * 1 KB) > 0 KB or true'))).toEqual([]);
  });
});

describe('isInputName', () => {
  it.each(['records', 'batch_size', '_x', 'h1', 'a'.repeat(64), 'min', 'MB', 'constructor'])('accepts %s', (name) => {
    expect(isInputName(name)).toBe(true);
  });

  it.each(['', '1x', 'a-b', 'a b', 'a'.repeat(65), 'and', 'in', 'true', 'größe'])('refuses %j', (name) => {
    expect(isInputName(name)).toBe(false);
  });
});

describe('the AST', () => {
  it('records source offsets and the operator column', () => {
    const { root } = parseExpression('a + (b * 2)');
    expect(root).toMatchObject({ type: 'binary', operator: '+', start: 0, end: 11, column: 3 });
    expect(root.type === 'binary' && root.right).toMatchObject({ type: 'binary', operator: '*', start: 4, end: 11, column: 8 });
  });

  it('binds in before comparison and after addition', () => {
    const { root } = parseExpression('a + b in MB > c');
    expect(root).toMatchObject({ type: 'binary', operator: '>', left: { type: 'convert', unit: 'MB', operand: { type: 'binary', operator: '+' } } });
  });
});
