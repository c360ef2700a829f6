/**
 * Reading a value from the words an analyst picked in evidence text: "12,400", "22 MB", "1.5 GiB",
 * "30 minutes", "03:10 UTC", "2026-03-01T03:10:00Z", "45%". The reading is strict: a quote that
 * could mean two things ("1,5", "10 m") is refused with what to pick instead, because the input's
 * value is recorded as the evidence's word.
 *
 * - Thousands separators: "," or a space (normal, no-break, thin, narrow no-break), one kind per
 *   number, in groups of exactly three digits. A decimal point is always ".".
 * - "45%" is the number 0.45 (9/20): a percentage is a dimensionless number in this language.
 * - "3/5" is the exact fraction, so formatValue's text of any number or quantity reads back as itself.
 * - "true"/"false" and "yes"/"no" (any case) are booleans: an observation per host, counted by count(...).
 * - An expected unit gives a bare number that unit ("22" → 22 MB) and converts a quoted quantity of
 *   the same dimension into it ("1.5 GiB" → 1536 MiB); anything else is refused.
 */
import { expressionError } from './errors';
import { fromDecimalDigits, mul, rational, type Rational } from './rational';
import { readTime } from './time';
import { convertAmount, findUnit, unit, unitHint, type UnitName } from './units';
import { booleanValue, clockValue, describeKind, instantValue, numberValue, outOfRange, quantityValue, type Value } from './values';

export const MAX_QUOTE_LENGTH = 200;

const NUMBER =
  /^(?<sign>[+\-\u2212])?(?:(?<num>\d+)\/(?<den>\d+)|(?<whole>\d{1,3}(?<sep>[, \u00A0\u2009\u202F])\d{3}(?:\k<sep>\d{3})*(?!\d)|\d+)(?:\.(?<fraction>\d+))?)/;

const EXPECTED =
  'expected a number (12,400 or 0.5), a quantity (22 MB, 30 min), a percentage (45%), a clock time (03:10 UTC), an instant (2026-03-01T03:10:00Z) or true/false';

const UNIT_WORDS: ReadonlyMap<string, UnitName> = new Map<string, UnitName>([
  ...(['byte', 'bytes'] as const).map((w) => [w, 'B'] as const),
  ...(['kilobyte', 'kilobytes'] as const).map((w) => [w, 'KB'] as const),
  ...(['megabyte', 'megabytes'] as const).map((w) => [w, 'MB'] as const),
  ...(['gigabyte', 'gigabytes'] as const).map((w) => [w, 'GB'] as const),
  ...(['terabyte', 'terabytes'] as const).map((w) => [w, 'TB'] as const),
  ...(['kibibyte', 'kibibytes'] as const).map((w) => [w, 'KiB'] as const),
  ...(['mebibyte', 'mebibytes'] as const).map((w) => [w, 'MiB'] as const),
  ...(['gibibyte', 'gibibytes'] as const).map((w) => [w, 'GiB'] as const),
  ...(['tebibyte', 'tebibytes'] as const).map((w) => [w, 'TiB'] as const),
  ...(['msec', 'msecs', 'millisecond', 'milliseconds'] as const).map((w) => [w, 'ms'] as const),
  ...(['sec', 'secs', 'second', 'seconds'] as const).map((w) => [w, 's'] as const),
  ...(['mins', 'minute', 'minutes'] as const).map((w) => [w, 'min'] as const),
  ...(['hr', 'hrs', 'hour', 'hours'] as const).map((w) => [w, 'h'] as const),
  ...(['day', 'days'] as const).map((w) => [w, 'd'] as const),
]);

/** Unit symbols are case-sensitive (Mb is megabits); spelled-out words are not. */
function unitOfWord(word: string): UnitName | undefined {
  return findUnit(word === 'kB' ? 'KB' : word)?.name ?? UNIT_WORDS.get(word.toLowerCase());
}

export function parseInputValue(quote: string, expectedUnit?: string): Value {
  if (quote.length > MAX_QUOTE_LENGTH) {
    throw expressionError('limit', `the quote is ${quote.length} characters long, more than ${MAX_QUOTE_LENGTH}`, MAX_QUOTE_LENGTH + 1, 'select only the number and its unit');
  }
  const expected = expectedUnit === undefined ? undefined : findUnit(expectedUnit)?.name;
  if (expectedUnit !== undefined && expected === undefined) {
    throw expressionError('unknown-unit', `unknown expected unit "${expectedUnit}"`, 1, unitHint(expectedUnit));
  }
  const text = quote.trim();
  const offset = quote.length - quote.trimStart().length;
  if (text === '') throw expressionError('input', 'the quote is empty', 1, EXPECTED);
  const read = readQuote(text, offset);
  const value = expected === undefined ? read : withExpectedUnit(read, expected, text, offset);
  const problem = outOfRange(value);
  if (problem) throw expressionError('range', `"${text}" ${problem}`, offset + 1, 'quote a smaller value');
  return value;
}

const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['yes', true],
  ['false', false],
  ['no', false],
]);

function readQuote(text: string, offset: number): Value {
  const truth = BOOLEAN_WORDS.get(text.toLowerCase());
  if (truth !== undefined) return booleanValue(truth);
  const time = readTime(text);
  if (time.kind === 'instant') return instantValue(time.ms);
  if (time.kind === 'clock') return clockValue(time.ms);
  if (time.kind === 'invalid') throw expressionError('input', time.problem, offset + 1, time.todo);

  const match = NUMBER.exec(text);
  const groups = match?.groups;
  if (!match || !groups) throw expressionError('input', `cannot read "${text}" as a value`, offset + 1, EXPECTED);
  const amount = readAmount(groups, text, offset);
  const rest = text.slice(match[0].length);
  const restColumn = offset + match[0].length + (rest.length - rest.trimStart().length) + 1;
  const suffix = rest.trim();
  if (suffix === '') return numberValue(amount);
  if (suffix === '%') return numberValue(mul(amount, rational(1n, 100n)));
  const unitName = unitOfWord(suffix);
  if (unitName) return quantityValue(amount, unitName);
  if (/^[,.]\d/.test(rest)) {
    throw expressionError('input', `"${text}" is not a number: "${rest[0]}" here is neither a thousands separator nor a decimal point`, restColumn, 'thousands go in groups of three (12,400) and decimals after a point (1.5)');
  }
  if (/^\s+\d/.test(rest)) {
    throw expressionError('input', `"${text}" is not one number: a space separates thousands only in groups of three`, restColumn, 'select a single number, such as 10 000 or 10000');
  }
  if (suffix === 'm' || suffix === 'M') {
    throw expressionError('unknown-unit', `"${suffix}" could mean minutes or metres`, restColumn, 'quote or type "min" for minutes');
  }
  throw expressionError('unknown-unit', `unknown unit "${suffix}"`, restColumn, `${unitHint(suffix)}; or a word such as bytes, minutes, hours`);
}

function readAmount(groups: Record<string, string | undefined>, text: string, offset: number): Rational {
  const negative = groups.sign === '-' || groups.sign === '\u2212';
  if (groups.num !== undefined && groups.den !== undefined) {
    const den = BigInt(groups.den);
    if (den === 0n) throw expressionError('input', `"${text}" divides by zero`, offset + 1, 'quote a fraction with a non-zero denominator');
    const num = BigInt(groups.num);
    return rational(negative ? -num : num, den);
  }
  const whole = (groups.whole ?? '').replace(/[^0-9]/g, '');
  return fromDecimalDigits(whole, groups.fraction ?? '', negative);
}

function withExpectedUnit(v: Value, expected: UnitName, text: string, offset: number): Value {
  if (v.kind === 'number' && !text.endsWith('%')) return quantityValue(v.amount, expected);
  if (v.kind === 'quantity' && unit(v.unit).dimension === unit(expected).dimension) {
    return quantityValue(convertAmount(v.amount, v.unit, expected), expected);
  }
  throw expressionError('input', `"${text}" is ${describeKind(v)}, not a ${unit(expected).dimension} in ${expected}`, offset + 1, `quote a number or a ${unit(expected).dimension}`);
}
