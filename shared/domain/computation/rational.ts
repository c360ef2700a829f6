/**
 * Exact rationals over BigInt. Every value a computation produces is one of these (or a count of
 * milliseconds), so two machines recompute the same result to the last digit; no floating point
 * is used anywhere in the language.
 *
 * A rational is normalised: gcd(num, den) = 1 and den > 0, so structural equality is value
 * equality. Operations here do not bound their results; the evaluator checks every value it
 * produces against MAX_MAGNITUDE_BITS, which keeps every operation cheap.
 */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** Numerator and denominator magnitudes stay below 2^512: any result needing more is refused. */
export const MAX_MAGNITUDE_BITS = 512;
const MAX_MAGNITUDE = 1n << BigInt(MAX_MAGNITUDE_BITS);

export const ZERO: Rational = { num: 0n, den: 1n };
export const ONE: Rational = { num: 1n, den: 1n };

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('rational: zero denominator');
  if (num === 0n) return ZERO;
  const sign = den < 0n ? -1n : 1n;
  const g = gcd(num, den);
  return { num: (sign * num) / g, den: (sign * den) / g };
}

export function integer(n: bigint | number): Rational {
  return { num: BigInt(n), den: 1n };
}

export function isWithinMagnitude(r: Rational): boolean {
  const n = r.num < 0n ? -r.num : r.num;
  return n < MAX_MAGNITUDE && r.den < MAX_MAGNITUDE;
}

export const add = (a: Rational, b: Rational): Rational => rational(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Rational, b: Rational): Rational => rational(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Rational, b: Rational): Rational => rational(a.num * b.num, a.den * b.den);
/** The caller has checked `b` is not zero (it names the divisor in its error). */
export const div = (a: Rational, b: Rational): Rational => rational(a.num * b.den, a.den * b.num);
export const neg = (a: Rational): Rational => rational(-a.num, a.den);
export const abs = (a: Rational): Rational => (a.num < 0n ? neg(a) : a);
export const isZero = (a: Rational): boolean => a.num === 0n;
export const isInteger = (a: Rational): boolean => a.den === 1n;

/** -1, 0 or 1. Denominators are positive, so cross-multiplying keeps the order. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function floor(a: Rational): Rational {
  // BigInt division truncates toward zero; a negative non-integer needs one step down.
  const q = a.num / a.den;
  return integer(a.num % a.den !== 0n && a.num < 0n ? q - 1n : q);
}

export function ceil(a: Rational): Rational {
  const q = a.num / a.den;
  return integer(a.num % a.den !== 0n && a.num > 0n ? q + 1n : q);
}

/** Half away from zero: round(2.5) = 3, round(-2.5) = -3. */
export function round(a: Rational): Rational {
  const n = a.num < 0n ? -a.num : a.num;
  const q = (2n * n + a.den) / (2n * a.den);
  return integer(a.num < 0n ? -q : q);
}

/**
 * Canonical text: an integer as digits (`-12`), a terminating decimal exactly (`0.125`, no trailing
 * zeros, never an exponent), anything else as the exact reduced fraction `num/den` (`1/3`, `-7/3`).
 * A fraction is exact and short, where a rounded decimal would need a precision rule and a marker.
 */
export function formatRational(a: Rational): string {
  if (a.den === 1n) return a.num.toString();
  let rest = a.den;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) {
    rest /= 2n;
    twos++;
  }
  while (rest % 5n === 0n) {
    rest /= 5n;
    fives++;
  }
  if (rest !== 1n) return `${a.num}/${a.den}`;
  const scale = Math.max(twos, fives);
  const magnitude = a.num < 0n ? -a.num : a.num;
  // Exact: den divides 10^scale. The scale is minimal, so the last digit is never 0.
  const digits = ((magnitude * 10n ** BigInt(scale)) / a.den).toString().padStart(scale + 1, '0');
  const sign = a.num < 0n ? '-' : '';
  return `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** `digits` and `fraction` are ASCII digit strings the caller has matched; `fraction` may be ''. */
export function fromDecimalDigits(digits: string, fraction: string, negative = false): Rational {
  const num = BigInt(digits + fraction);
  return rational(negative ? -num : num, 10n ** BigInt(fraction.length));
}
