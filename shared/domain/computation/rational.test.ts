import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Q from './rational';

const r = (num: bigint, den = 1n) => Q.rational(num, den);

describe('rational', () => {
  it('normalises sign and common factors', () => {
    expect(r(2n, -4n)).toEqual({ num: -1n, den: 2n });
    expect(r(0n, -7n)).toEqual({ num: 0n, den: 1n });
    expect(() => r(1n, 0n)).toThrow(RangeError);
  });

  it.each([
    [r(7n), '7'],
    [r(-7n), '-7'],
    [r(0n), '0'],
    [r(1n, 8n), '0.125'],
    [r(-1n, 8n), '-0.125'],
    [r(1n, 3n), '1/3'],
    [r(-7n, 3n), '-7/3'],
    [r(1n, 6n), '1/6'],
    [r(123n, 100n), '1.23'],
    [r(1n, 1024n), '0.0009765625'],
    [r(10n ** 20n + 1n, 10n ** 20n), '1.00000000000000000001'],
  ])('formats %o as %s', (value, text) => {
    expect(Q.formatRational(value)).toBe(text);
  });

  it.each([
    [r(5n, 2n), 2n, 3n, 3n],
    [r(-5n, 2n), -3n, -2n, -3n],
    [r(7n, 3n), 2n, 3n, 2n],
    [r(-7n, 3n), -3n, -2n, -2n],
    [r(4n), 4n, 4n, 4n],
  ])('floor, ceil, round of %o', (value, floor, ceil, round) => {
    expect([Q.floor(value), Q.ceil(value), Q.round(value)]).toEqual([r(floor), r(ceil), r(round)]);
  });

  const rat = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 9n })).map(([n, d]) => r(n, d));

  it('field laws hold exactly', () => {
    fc.assert(
      fc.property(rat, rat, rat, (a, b, c) => {
        expect(Q.add(a, b)).toEqual(Q.add(b, a));
        expect(Q.mul(a, Q.add(b, c))).toEqual(Q.add(Q.mul(a, b), Q.mul(a, c)));
        expect(Q.sub(Q.add(a, b), b)).toEqual(a);
        if (!Q.isZero(b)) expect(Q.mul(Q.div(a, b), b)).toEqual(a);
      }),
    );
  });

  it('floor <= x <= ceil, within 1, and round is the nearest integer (ties away from zero)', () => {
    fc.assert(
      fc.property(rat, (x) => {
        const [f, c, n] = [Q.floor(x), Q.ceil(x), Q.round(x)];
        expect(Q.compare(f, x)).toBeLessThanOrEqual(0);
        expect(Q.compare(x, c)).toBeLessThanOrEqual(0);
        expect(Q.sub(c, f)).toEqual(Q.isInteger(x) ? Q.ZERO : Q.ONE);
        const distance = Q.abs(Q.sub(x, n));
        expect(Q.compare(distance, r(1n, 2n))).toBeLessThanOrEqual(0);
        if (Q.compare(distance, r(1n, 2n)) === 0) expect(Q.compare(Q.abs(n), Q.abs(x))).toBe(1);
      }),
    );
  });

  it('a terminating decimal reads back from its text as the same value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat({ max: 40 }), fc.nat({ max: 40 }), (n, twos, fives) => {
        const x = r(n, 2n ** BigInt(twos) * 5n ** BigInt(fives));
        const [digits, fraction = ''] = Q.formatRational(Q.abs(x)).split('.');
        expect(Q.fromDecimalDigits(digits!, fraction, x.num < 0n)).toEqual(x);
      }),
    );
  });
});
