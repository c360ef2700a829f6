/**
 * Computation expressions (issue 14): a small, safe, deterministic language for the arithmetic an
 * analyst's conclusion rests on, over named inputs quoted from evidence. The store recomputes
 * every computation during audit verify and compares `resultText`, so evaluation is exact (BigInt
 * rationals, whole milliseconds, no floating point) and the canonical text is stable.
 *
 *   const expr = parseExpression('ceil(records / batch_size)');
 *   referencedNames(expr);                         // ['records', 'batch_size']
 *   const inputs = new Map([['records', parseInputValue('12,400')], ['batch_size', parseInputValue('10,000')]]);
 *   resultText(expr, inputs);                      // '2'
 *
 * Choices the canonical text depends on (changing one changes recorded results):
 * - A number that is not a terminating decimal is written as its exact reduced fraction (`1/3`,
 *   `-7/3`); terminating decimals are written out exactly (`0.125`), never with an exponent.
 * - A quantity keeps the unit it was written in; a + b, min, max and sum take the first operand's
 *   unit, `x in MB` / `to(x, "MB")` change it, and a difference of two times is a duration in the
 *   largest of d, h, min, s, ms that keeps it whole (`30 min`, `1799 s`; zero is `0 s`).
 * - Clock times are UTC times of day; clock - clock is a signed duration (no wrap past midnight),
 *   and clock ± duration must stay within the day. Instants cover the years 0000 to 9999.
 * - `45%` in a quote is the number 0.45; there is no percent operator in expressions.
 *
 * Every failure is an ExpressionError with a code, a 1-based column and a message that says what
 * failed and what to do. Build input values with parseInputValue or the constructors below, never
 * by hand: values are assumed normalised.
 */
import { KEYWORDS, type Expression, type Node } from './parse';
import { MAX_NAME_LENGTH } from './lex';
import { evaluate } from './evaluate';
import { formatValue, type Value } from './values';

export { ExpressionError, type ExpressionErrorCode } from './errors';
export { parseExpression, LIMITS, FUNCTION_NAMES, type Expression, type Node } from './parse';
export { evaluate } from './evaluate';
export { parseInputValue, MAX_QUOTE_LENGTH } from './inputValue';
export { formatValue, describeKind, numberValue, quantityValue, instantValue, clockValue, booleanValue, type Value, type NumberValue, type QuantityValue, type InstantValue, type ClockValue, type BooleanValue } from './values';
export { UNIT_NAMES, type UnitName, type Dimension } from './units';
export { MAX_MAGNITUDE_BITS, rational, integer, type Rational } from './rational';

const NAME = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${MAX_NAME_LENGTH - 1}}$`);

/** Whether `name` can name an input: `[A-Za-z_][A-Za-z0-9_]{0,63}` and not a keyword (and, or, not, in, true, false). */
export function isInputName(name: string): boolean {
  return NAME.test(name) && !KEYWORDS.has(name);
}

/**
 * The input names an expression reads, each once, in order of first appearance: the store checks
 * every one is bound to an input and every input is used.
 */
export function referencedNames(expression: Expression): string[] {
  const seen = new Set<string>();
  const visit = (node: Node): void => {
    switch (node.type) {
      case 'name':
        seen.add(node.name);
        return;
      case 'literal':
        return;
      case 'negate':
      case 'not':
      case 'convert':
        visit(node.operand);
        return;
      case 'binary':
        visit(node.left);
        visit(node.right);
        return;
      case 'call':
        node.args.forEach(visit);
        return;
    }
  };
  visit(expression.root);
  return [...seen];
}

/** The canonical result text of `expression` over `inputs`: what a computation records and verify recomputes. */
export function resultText(expression: Expression, inputs: ReadonlyMap<string, Value>): string {
  return formatValue(evaluate(expression, inputs));
}
