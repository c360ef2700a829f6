import { ExpressionError } from './errors';
import { isInputName, parseExpression, parseInputValue, referencedNames, resultText } from './expression';
import { formatValue, type Value } from './values';

/**
 * A computation record's arithmetic (issue 14 §1): its inputs read from their quotes and the
 * result of its expression over them. Recording a computation and verifying one both call this,
 * so what verify recomputes is exactly what was recorded.
 */
export interface RecordedInput {
  name: string;
  quote: string;
  unit?: string | null;
}

/** Where a computation failed: the expression, or one input (by index), and why. */
export class ComputationError extends Error {
  constructor(
    readonly field: 'expression' | { input: number; field: 'name' | 'quote' | 'unit' },
    message: string,
  ) {
    super(message);
    this.name = 'ComputationError';
  }
}

export function recompute(expression: string, inputs: readonly RecordedInput[]): { values: string[]; result: string } {
  const names = new Set<string>();
  inputs.forEach((input, i) => {
    if (!isInputName(input.name)) {
      throw new ComputationError({ input: i, field: 'name' }, `input ${i + 1}: "${input.name}" cannot name an input; use letters, digits and _ (not starting with a digit), and not and/or/not/in/true/false`);
    }
    if (names.has(input.name)) throw new ComputationError({ input: i, field: 'name' }, `input ${i + 1}: the name "${input.name}" is used twice; give each input its own name`);
    names.add(input.name);
  });
  let parsed;
  try {
    parsed = parseExpression(expression);
  } catch (err) {
    throw err instanceof ExpressionError ? new ComputationError('expression', `expression: ${err.message}`) : err;
  }
  const used = referencedNames(parsed);
  const unbound = used.filter((n) => !names.has(n));
  if (unbound.length > 0) throw new ComputationError('expression', `expression: ${unbound.map((n) => `"${n}"`).join(', ')} ${unbound.length === 1 ? 'is' : 'are'} not an input; add an input of that name or correct the expression`);
  const unused = inputs.findIndex((input) => !used.includes(input.name));
  if (unused >= 0) throw new ComputationError({ input: unused, field: 'name' }, `input ${unused + 1}: "${inputs[unused]!.name}" is not used by the expression; use it or remove it`);
  const values = new Map<string, Value>();
  inputs.forEach((input, i) => {
    try {
      values.set(input.name, parseInputValue(input.quote, input.unit ?? undefined));
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      throw new ComputationError({ input: i, field: input.unit && err.message.includes('unit') ? 'unit' : 'quote' }, `input ${i + 1} ("${input.name}"): ${err.message}`);
    }
  });
  try {
    return { values: inputs.map((input) => formatValue(values.get(input.name)!)), result: resultText(parsed, values) };
  } catch (err) {
    throw err instanceof ExpressionError ? new ComputationError('expression', `expression: ${err.message}`) : err;
  }
}
