/** Helpers shared by this folder's tests: evaluate text over quoted inputs, or catch its error. */
import { ExpressionError } from './errors';
import { evaluate } from './evaluate';
import { parseInputValue } from './inputValue';
import { parseExpression } from './parse';
import { formatValue, type Value } from './values';

export function inputsOf(quotes: Readonly<Record<string, string>>): Map<string, Value> {
  return new Map(Object.entries(quotes).map(([name, quote]) => [name, parseInputValue(quote)]));
}

export function run(text: string, quotes: Readonly<Record<string, string>> = {}): string {
  return formatValue(evaluate(parseExpression(text), inputsOf(quotes)));
}

export function failure(act: () => unknown): ExpressionError {
  try {
    act();
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error('expected an ExpressionError, but it succeeded');
}

export const runFailure = (text: string, quotes: Readonly<Record<string, string>> = {}): ExpressionError => failure(() => run(text, quotes));
