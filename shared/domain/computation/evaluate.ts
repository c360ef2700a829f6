/**
 * Evaluation of a parsed expression over named input values. Names resolve only through the inputs
 * Map and functions only through the switch below: no text of an expression ever reaches a JS
 * property lookup. Every value a node produces is checked against the language's bounds, so no
 * input can make evaluation slow, and both sides of `and` / `or` are always evaluated so a type
 * error is never hidden by an input's value.
 */
import { expressionError, type ExpressionError } from './errors';
import type { BinaryOperator, Expression, Node } from './parse';
import * as Q from './rational';
import { convertAmount, inBaseUnits, unit, type UnitName } from './units';
import { booleanValue, clockValue, describeKind, dimensionOf, formatValue, instantValue, numberValue, outOfRange, quantityValue, type Value } from './values';

export function evaluate(expression: Expression, inputs: ReadonlyMap<string, Value>): Value {
  return new Evaluator(expression.text, inputs).value(expression.root);
}

const RANGE_ADVICE: Readonly<Record<Value['kind'], string>> = {
  number: 'round an intermediate value with round(), floor() or ceil(), or check the inputs',
  quantity: 'round an intermediate value with round(), floor() or ceil(), or check the inputs',
  instant: 'check the inputs',
  clock: 'use instants (with their dates) for spans that cross midnight',
  boolean: 'check the inputs',
};

/** Units a time difference is written in: the largest one that keeps it a whole number. */
const DIFFERENCE_UNITS: readonly UnitName[] = ['d', 'h', 'min', 's', 'ms'];

class Evaluator {
  constructor(
    private readonly text: string,
    private readonly inputs: ReadonlyMap<string, Value>,
  ) {}

  value(node: Node): Value {
    const result = this.compute(node);
    const problem = outOfRange(result);
    if (problem) {
      const what = node.type === 'name' ? `the input "${node.name}"` : `the value of ${this.source(node)}`;
      throw expressionError('range', `${what} ${problem}`, node.column, RANGE_ADVICE[result.kind]);
    }
    return result;
  }

  /** The node's source text, quoted and shortened for a message. */
  private source(node: Node): string {
    const text = this.text.slice(node.start, node.end).replace(/\s+/g, ' ');
    return `"${text.length > 40 ? `${text.slice(0, 39)}…` : text}"`;
  }

  private fail(node: Node, what: string, todo: string, code: 'type' | 'division-by-zero' = 'type'): ExpressionError {
    return expressionError(code, what, node.column, todo);
  }

  private compute(node: Node): Value {
    switch (node.type) {
      case 'literal':
        return node.value;
      case 'name': {
        const bound = this.inputs.get(node.name);
        if (bound !== undefined) return bound;
        const names = [...this.inputs.keys()];
        const todo = names.length === 0 ? 'no inputs are bound; add one from the evidence' : `the inputs are: ${names.join(', ')}`;
        throw expressionError('unknown-name', `unknown name "${node.name}"`, node.column, todo);
      }
      case 'negate': {
        const v = this.value(node.operand);
        if (v.kind === 'number') return numberValue(Q.neg(v.amount));
        if (v.kind === 'quantity') return quantityValue(Q.neg(v.amount), v.unit);
        throw this.fail(node, `cannot negate ${describeKind(v)}`, 'only numbers and quantities have a sign');
      }
      case 'not': {
        const v = this.value(node.operand);
        if (v.kind === 'boolean') return booleanValue(!v.value);
        throw this.fail(node, `"not" needs a boolean, not ${describeKind(v)}`, 'compare the value first, as in not (x > 0)');
      }
      case 'binary':
        return this.binary(node, node.operator, this.value(node.left), this.value(node.right));
      case 'convert':
        return this.convert(node, this.value(node.operand), node.unit);
      case 'call':
        return this.call(node, node.function, node.args);
    }
  }

  private binary(node: Node, op: BinaryOperator, l: Value, r: Value): Value {
    switch (op) {
      case '+':
      case '-':
        return this.addOrSubtract(node, op, l, r);
      case '*':
        return this.multiply(node, l, r);
      case '/':
        return this.divide(node, l, r);
      case 'and':
      case 'or':
        if (l.kind !== 'boolean' || r.kind !== 'boolean') {
          throw this.fail(node, `"${op}" needs two booleans, not ${describeKind(l)} and ${describeKind(r)}`, 'compare values first, as in x > 0 and y > 0');
        }
        return booleanValue(op === 'and' ? l.value && r.value : l.value || r.value);
      default:
        return booleanValue(this.compare(node, op, l, r));
    }
  }

  private addOrSubtract(node: Node, op: '+' | '-', l: Value, r: Value): Value {
    const verb = op === '+' ? 'add' : 'subtract';
    const combine = op === '+' ? Q.add : Q.sub;
    if (l.kind === 'number' && r.kind === 'number') return numberValue(combine(l.amount, r.amount));
    if (l.kind === 'quantity' && r.kind === 'quantity') {
      if (dimensionOf(l) !== dimensionOf(r)) {
        throw this.fail(node, `cannot ${verb} ${describeKind(l)} and ${describeKind(r)}`, 'both sides need the same dimension');
      }
      return quantityValue(combine(l.amount, convertAmount(r.amount, r.unit, l.unit)), l.unit);
    }
    const q = l.kind === 'quantity' && r.kind === 'number' ? l : l.kind === 'number' && r.kind === 'quantity' ? r : null;
    if (q) throw this.fail(node, `cannot ${verb} ${describeKind(l)} and ${describeKind(r)}`, `a number has no unit; give it one, as in 2 ${q.unit}`);
    if ((l.kind === 'instant' || l.kind === 'clock') && r.kind === l.kind && op === '-') {
      return this.difference(l.ms - r.ms);
    }
    const time = l.kind === 'instant' || l.kind === 'clock' ? l : r.kind === 'instant' || r.kind === 'clock' ? r : null;
    const shift = time === l ? r : l;
    if (time && shift.kind === 'quantity' && dimensionOf(shift) === 'duration' && (op === '+' || time === l)) {
      const ms = convertAmount(shift.amount, shift.unit, 'ms');
      if (!Q.isInteger(ms)) {
        throw this.fail(node, `${formatValue(shift)} is not a whole number of milliseconds`, 'round it first, as in round(x in ms)');
      }
      const moved = op === '+' ? time.ms + ms.num : time.ms - ms.num;
      return time.kind === 'instant' ? instantValue(moved) : clockValue(moved);
    }
    const todo = time
      ? 'subtract two instants or two clock times to get a duration, and add or subtract a duration to move a time'
      : 'arithmetic works on numbers and quantities; use count(...) to count true values';
    throw this.fail(node, `cannot ${verb} ${describeKind(l)} and ${describeKind(r)}`, todo);
  }

  private difference(ms: bigint): Value {
    if (ms === 0n) return quantityValue(Q.ZERO, 's');
    const name = DIFFERENCE_UNITS.find((u) => ms % unit(u).base === 0n) ?? 'ms';
    return quantityValue(Q.rational(ms, unit(name).base), name);
  }

  private multiply(node: Node, l: Value, r: Value): Value {
    if (l.kind === 'number' && r.kind === 'number') return numberValue(Q.mul(l.amount, r.amount));
    if (l.kind === 'quantity' && r.kind === 'number') return quantityValue(Q.mul(l.amount, r.amount), l.unit);
    if (l.kind === 'number' && r.kind === 'quantity') return quantityValue(Q.mul(l.amount, r.amount), r.unit);
    const todo = l.kind === 'quantity' && r.kind === 'quantity' ? 'there are no compound units; only a number scales a quantity' : 'only numbers and quantities multiply';
    throw this.fail(node, `cannot multiply ${describeKind(l)} by ${describeKind(r)}`, todo);
  }

  private divide(node: Node, l: Value, r: Value): Value {
    const right = node.type === 'binary' ? node.right : node;
    const divisor = (amount: Q.Rational): Q.Rational => {
      if (Q.isZero(amount)) {
        throw this.fail(node, `division by zero: the divisor ${this.source(right)} is 0`, 'check the inputs, or compare the divisor with 0 first', 'division-by-zero');
      }
      return amount;
    };
    if (l.kind === 'number' && r.kind === 'number') return numberValue(Q.div(l.amount, divisor(r.amount)));
    if (l.kind === 'quantity' && r.kind === 'number') return quantityValue(Q.div(l.amount, divisor(r.amount)), l.unit);
    if (l.kind === 'quantity' && r.kind === 'quantity' && dimensionOf(l) === dimensionOf(r)) {
      return numberValue(Q.div(l.amount, divisor(convertAmount(r.amount, r.unit, l.unit))));
    }
    const todo =
      l.kind === 'quantity' && r.kind === 'quantity'
        ? `there are no compound units such as ${l.unit}/${r.unit}; divide by a number, as in x / (y / 1 ${r.unit})`
        : l.kind === 'number' && r.kind === 'quantity'
          ? `a number divided by a quantity has no unit here; divide by a number, as in x / (y / 1 ${r.unit})`
          : 'only numbers and quantities divide';
    throw this.fail(node, `cannot divide ${describeKind(l)} by ${describeKind(r)}`, todo);
  }

  private compare(node: Node, op: BinaryOperator, l: Value, r: Value): boolean {
    let order: -1 | 0 | 1;
    if (l.kind === 'number' && r.kind === 'number') order = Q.compare(l.amount, r.amount);
    else if (l.kind === 'quantity' && r.kind === 'quantity' && dimensionOf(l) === dimensionOf(r)) {
      order = Q.compare(inBaseUnits(l.amount, l.unit), inBaseUnits(r.amount, r.unit));
    } else if ((l.kind === 'instant' || l.kind === 'clock') && r.kind === l.kind) order = l.ms < r.ms ? -1 : l.ms > r.ms ? 1 : 0;
    else if (l.kind === 'boolean' && r.kind === 'boolean' && (op === '==' || op === '!=')) order = l.value === r.value ? 0 : 1;
    else {
      const todo = l.kind === 'boolean' && r.kind === 'boolean' ? 'booleans are only equal or not (== and !=)' : 'both sides need the same kind and dimension';
      throw this.fail(node, `cannot compare ${describeKind(l)} with ${describeKind(r)}`, todo);
    }
    switch (op) {
      case '<':
        return order < 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      case '>=':
        return order >= 0;
      case '==':
        return order === 0;
      default:
        return order !== 0;
    }
  }

  private convert(node: Node, v: Value, to: UnitName): Value {
    if (v.kind === 'quantity' && dimensionOf(v) === unit(to).dimension) return quantityValue(convertAmount(v.amount, v.unit, to), to);
    const todo =
      v.kind === 'number'
        ? `a number has no unit to convert; give it one, as in x * 1 ${to}`
        : `${to} is a ${unit(to).dimension} unit; convert only between units of one dimension`;
    throw this.fail(node, `cannot convert ${describeKind(v)} to ${to}`, todo);
  }

  private call(node: Node, fn: string, args: readonly Node[]): Value {
    const values = args.map((a) => this.value(a));
    const first = values[0]!;
    switch (fn) {
      case 'ceil':
        return this.rounded(node, fn, first, Q.ceil);
      case 'floor':
        return this.rounded(node, fn, first, Q.floor);
      case 'round':
        return this.rounded(node, fn, first, Q.round);
      case 'abs':
        return this.rounded(node, fn, first, Q.abs);
      case 'count':
        values.forEach((v, i) => {
          if (v.kind !== 'boolean') this.badArgument(fn, 'booleans', v, args[i]!, 'compare the value first, as in x > 0');
        });
        return numberValue(Q.integer(values.filter((v) => v.kind === 'boolean' && v.value).length));
      case 'sum':
        this.sameKindArguments(fn, values, args, ['number', 'quantity'], 'numbers or quantities', 'sum adds numbers or quantities of one dimension; count(...) counts booleans');
        return values.reduce((total, v, i) => this.addOrSubtract(args[i]!, '+', total, v));
      default: {
        this.sameKindArguments(fn, values, args, ['number', 'quantity', 'instant', 'clock'], 'numbers, quantities or times', `${fn} compares numbers, quantities of one dimension or times of one kind`);
        const pick = fn === 'min' ? '<' : '>';
        // The result keeps the first argument's unit, as a + b keeps a's.
        return values.reduce((best, v, i) => {
          if (!this.compare(args[i]!, pick, v, best)) return best;
          return v.kind === 'quantity' && best.kind === 'quantity' ? quantityValue(convertAmount(v.amount, v.unit, best.unit), best.unit) : v;
        });
      }
    }
  }

  /** Every argument has one of `kinds`, and the kind (and dimension) of the first. */
  private sameKindArguments(fn: string, values: readonly Value[], args: readonly Node[], kinds: readonly Value['kind'][], wanted: string, todo: string): void {
    const first = values[0]!;
    const family = (v: Value): string => (v.kind === 'quantity' ? dimensionOf(v) : v.kind);
    values.forEach((v, i) => {
      if (!kinds.includes(v.kind)) this.badArgument(fn, wanted, v, args[i]!, todo);
      if (family(v) !== family(first)) this.badArgument(fn, `arguments of one kind, like its first (${describeKind(first)})`, v, args[i]!, todo);
    });
  }

  private badArgument(fn: string, wanted: string, v: Value, arg: Node, todo: string): never {
    throw expressionError('type', `${fn} needs ${wanted}, but ${this.source(arg)} is ${describeKind(v)}`, arg.start + 1, todo);
  }

  private rounded(node: Node, fn: string, v: Value, op: (r: Q.Rational) => Q.Rational): Value {
    if (v.kind === 'number') return numberValue(op(v.amount));
    if (v.kind === 'quantity') return quantityValue(op(v.amount), v.unit);
    throw this.fail(node, `${fn} needs a number or a quantity, not ${describeKind(v)}`, 'compute a number or a duration first');
  }
}
