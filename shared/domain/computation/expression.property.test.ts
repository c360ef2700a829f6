import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpressionError, evaluate, formatValue, parseExpression, parseInputValue, UNIT_NAMES, type Value } from './expression';
import { integer } from './rational';
import { inputsOf } from './testing';
import { unit } from './units';
import { numberValue } from './values';

/** The formatted result, or the error's code, column and message: what must not vary between runs. */
function outcome(text: string, inputs: ReadonlyMap<string, Value>): string {
  try {
    return formatValue(evaluate(parseExpression(text), inputs));
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    return `${error.code}@${error.column}: ${error.message}`;
  }
}

const QUOTES = { records: '12,400', batch: '10,000', left: '22 MB', rate: '1.5 MiB', start: '03:10', end: '03:40', at: '2026-03-01T03:10:00Z', share: '45%', window: '30 minutes' };
const NAMES = Object.keys(QUOTES);

const leaf = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }).map(String),
  fc.tuple(fc.nat(999), fc.nat(999)).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.nat(5000), fc.constantFrom(...UNIT_NAMES)).map(([n, u]) => `${n} ${u}`),
  fc.constantFrom(...NAMES, 'true', 'false', 'time("03:10")', 'time("2026-03-01T00:00:00Z")'),
);

const expressionText = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*', '/', '<', '<=', '>', '>=', '==', '!=', 'and', 'or'), tie('expr')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    tie('expr').map((e) => `-${e}`),
    tie('expr').map((e) => `not ${e}`),
    fc.tuple(tie('expr'), fc.constantFrom(...UNIT_NAMES)).map(([e, u]) => `(${e} in ${u})`),
    fc.tuple(fc.constantFrom('ceil', 'floor', 'round', 'abs'), tie('expr')).map(([f, e]) => `${f}(${e})`),
    fc.tuple(fc.constantFrom('min', 'max', 'sum', 'count'), fc.array(tie('expr'), { minLength: 1, maxLength: 4 })).map(([f, args]) => `${f}(${args.join(', ')})`),
  ),
})).expr;

describe('evaluation is deterministic', () => {
  it('the generated expressions reach results of every kind, not only errors', () => {
    const inputs = inputsOf(QUOTES);
    const results = fc.sample(expressionText, { numRuns: 2000, seed: 14 }).map((text) => outcome(text, inputs));
    const kinds = new Set(results.map((r) => (/^[a-z-]+@\d+: /.test(r) ? 'error' : /^(true|false)$/.test(r) ? 'boolean' : / [A-Za-z]+$/.test(r) ? 'quantity' : /T|:/.test(r) ? 'time' : 'number')));
    expect([...kinds].sort()).toEqual(['boolean', 'error', 'number', 'quantity', 'time']);
  });

  it('the same text and inputs give the same result or the same error, whatever the Map order', () => {
    const inputs = inputsOf(QUOTES);
    const reversed = new Map([...inputs].reverse());
    fc.assert(
      fc.property(expressionText, (text) => {
        const first = outcome(text, inputs);
        expect(outcome(text, inputs)).toBe(first);
        expect(outcome(text, reversed)).toBe(first);
      }),
      { numRuns: 500 },
    );
  });
});

type IntTree = { kind: 'int'; value: number } | { kind: 'op'; op: '+' | '-' | '*' | '/'; left: IntTree; right: IntTree };

const intTree = (ops: readonly ('+' | '-' | '*' | '/')[]) =>
  fc.letrec<{ tree: IntTree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', maxDepth: 6 },
      fc.integer({ min: -1000, max: 1000 }).map((value): IntTree => ({ kind: 'int', value })),
      fc.record({ kind: fc.constant('op' as const), op: fc.constantFrom(...ops), left: tie('tree'), right: tie('tree') }),
    ),
  })).tree;

const render = (t: IntTree): string => (t.kind === 'int' ? String(t.value) : `(${render(t.left)} ${t.op} ${render(t.right)})`);

/** Reference semantics, independent of the module: BigInt for + - *, Number, and fractions as pairs. */
const bigintOf = (t: IntTree): bigint => {
  if (t.kind === 'int') return BigInt(t.value);
  const [l, r] = [bigintOf(t.left), bigintOf(t.right)];
  return t.op === '+' ? l + r : t.op === '-' ? l - r : l * r;
};
const numberOf = (t: IntTree): number => {
  if (t.kind === 'int') return t.value;
  const [l, r] = [numberOf(t.left), numberOf(t.right)];
  return t.op === '+' ? l + r : t.op === '-' ? l - r : l * r;
};
const fractionOf = (t: IntTree): [bigint, bigint] | 'division by zero' => {
  if (t.kind === 'int') return [BigInt(t.value), 1n];
  const [l, r] = [fractionOf(t.left), fractionOf(t.right)];
  if (l === 'division by zero' || r === 'division by zero') return 'division by zero';
  const [[a, b], [c, d]] = [l, r];
  if (t.op === '/') return c === 0n ? 'division by zero' : [a * d, b * c];
  return t.op === '+' ? [a * d + c * b, b * d] : t.op === '-' ? [a * d - c * b, b * d] : [a * c, b * d];
};

describe('arithmetic agrees with BigInt and Number where they are exact', () => {
  it('+ - * over small integers', () => {
    fc.assert(
      fc.property(intTree(['+', '-', '*']), (tree) => {
        const result = outcome(render(tree), new Map());
        expect(result).toBe(bigintOf(tree).toString());
        const asNumber = numberOf(tree);
        if (Number.isSafeInteger(asNumber)) expect(result).toBe(String(asNumber));
      }),
    );
  });

  it('+ - * / over small integers, as exact fractions', () => {
    fc.assert(
      fc.property(intTree(['+', '-', '*', '/']), (tree) => {
        const expected = fractionOf(tree);
        if (expected === 'division by zero') {
          expect(() => evaluate(parseExpression(render(tree)), new Map())).toThrow(expect.objectContaining({ code: 'division-by-zero' }));
          return;
        }
        const value = evaluate(parseExpression(render(tree)), new Map());
        expect(value.kind).toBe('number');
        if (value.kind !== 'number') return;
        const [num, den] = expected;
        expect(value.amount.num * den).toBe(num * value.amount.den);
      }),
    );
  });

  it('precedence without parentheses: * before + and -, left to right', () => {
    const flat = fc.tuple(fc.integer({ min: 0, max: 99 }), fc.array(fc.tuple(fc.constantFrom('+', '-', '*'), fc.integer({ min: 0, max: 99 })), { maxLength: 8 }));
    fc.assert(
      fc.property(flat, ([head, rest]) => {
        const text = [String(head), ...rest.map(([op, n]) => `${op} ${n}`)].join(' ');
        // Reference: a sum of products, folded left to right in BigInt.
        const reference = rest.reduce<{ sum: bigint; term: bigint }>(
          (acc, [op, n]) => (op === '*' ? { sum: acc.sum, term: acc.term * BigInt(n) } : { sum: acc.sum + acc.term, term: op === '+' ? BigInt(n) : -BigInt(n) }),
          { sum: 0n, term: BigInt(head) },
        );
        expect(outcome(text, new Map())).toBe((reference.sum + reference.term).toString());
      }),
    );
  });
});

describe('ceil(a / b) is the number of batches', () => {
  it('ceil(a/b) * b >= a > (ceil(a/b) - 1) * b for positive integers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 100_000 }), (a, b) => {
        const inputs = new Map([
          ['a', numberValue(integer(a))],
          ['b', numberValue(integer(b))],
        ]);
        const batches = BigInt(outcome('ceil(a / b)', inputs));
        expect(batches * BigInt(b) >= BigInt(a)).toBe(true);
        expect(BigInt(a) > (batches - 1n) * BigInt(b)).toBe(true);
        expect(outcome('ceil(a / b) * b >= a and a > (ceil(a / b) - 1) * b', inputs)).toBe('true');
      }),
    );
  });
});

describe('unit conversion is exact', () => {
  const quantity = fc.tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(...UNIT_NAMES));

  it('converting to any unit of the dimension and back gives the same value, and compares equal', () => {
    fc.assert(
      fc.property(quantity, fc.constantFrom(...UNIT_NAMES), ([n, from], to) => {
        fc.pre(unit(from).dimension === unit(to).dimension);
        const inputs = new Map([['x', parseInputValue(`${n} ${from}`)]]);
        expect(outcome(`x in ${to} in ${from}`, inputs)).toBe(outcome('x', inputs));
        expect(outcome(`x in ${to} == x`, inputs)).toBe('true');
      }),
    );
  });
});

describe('no input text escapes as anything but an ExpressionError', () => {
  const soup = fc
    .tuple(
      fc.array(
        fc.constantFrom('1', '0.5', '22', '12,400', 'MB', 'min', 'x', 'left', 'start', '+', '-', '*', '/', '(', ')', ',', '<', '==', '!=', 'and', 'not', 'in', 'true', 'ceil', 'min', 'sum', 'count', 'to', 'time', '"MB"', '"03:10"', '"', 'constructor', '__proto__', '1e3', '.', '=', '%', '\n'),
        { maxLength: 40 },
      ),
      fc.constantFrom('', ' '),
    )
    .map(([tokens, joiner]) => tokens.join(joiner));
  const anyText = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), soup, expressionText);

  it('parse and evaluate either succeed or throw an ExpressionError with a column inside the text', () => {
    const inputs = inputsOf(QUOTES);
    fc.assert(
      fc.property(anyText, (text) => {
        try {
          evaluate(parseExpression(text), inputs);
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionError);
          const { column, message } = error as ExpressionError;
          expect(column).toBeGreaterThanOrEqual(1);
          expect(column).toBeLessThanOrEqual(text.length + 1);
          expect(message).toContain(`at column ${column}; `);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('parseInputValue either reads a value or throws an ExpressionError', () => {
    const quote = fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^[-+]?[0-9 ,.:/%]{0,12}\s?[A-Za-z%]{0,8}$/));
    fc.assert(
      fc.property(quote, fc.option(fc.constantFrom(...UNIT_NAMES, 'mb')), (text, expected) => {
        try {
          parseInputValue(text, expected ?? undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionError);
          expect((error as ExpressionError).message).toMatch(/ at column \d+; /);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
