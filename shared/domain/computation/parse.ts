/**
 * Recursive-descent parser from expression text to an AST. Everything that can be checked without
 * the inputs is checked here (syntax, function names and arities, unit names, time literals,
 * limits), so a stored expression that parses only fails evaluation on its inputs' values.
 *
 * Precedence, loosest first: `or`, `and`, `not`, one comparison (< <= > >= == !=), `x in UNIT`,
 * + -, * /, unary -, then literals, names, calls and parentheses.
 */
import { expressionError, type ExpressionError } from './errors';
import { tokenize, type Token } from './lex';
import { fromDecimalDigits } from './rational';
import { readTime } from './time';
import { findUnit, unitHint, type UnitName } from './units';
import { numberValue, quantityValue, booleanValue, clockValue, instantValue, outOfRange, type Value } from './values';

export const LIMITS = {
  /** Characters (UTF-16 code units) of expression text. */
  textLength: 2000,
  /** Nested parentheses, calls and prefix operators. */
  depth: 64,
  nodes: 500,
  arguments: 64,
} as const;

export type ArithmeticOperator = '+' | '-' | '*' | '/';
export type ComparisonOperator = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type BinaryOperator = ArithmeticOperator | ComparisonOperator | 'and' | 'or';
export type FunctionName = 'min' | 'max' | 'sum' | 'count' | 'ceil' | 'floor' | 'round' | 'abs';

interface NodeBase {
  /** 0-based offsets of the node's source text. */
  readonly start: number;
  readonly end: number;
  /** 1-based column errors about this node point at: its operator, function or first character. */
  readonly column: number;
}

export type Node =
  | (NodeBase & { readonly type: 'literal'; readonly value: Value })
  | (NodeBase & { readonly type: 'name'; readonly name: string })
  | (NodeBase & { readonly type: 'negate' | 'not'; readonly operand: Node })
  | (NodeBase & { readonly type: 'binary'; readonly operator: BinaryOperator; readonly left: Node; readonly right: Node })
  | (NodeBase & { readonly type: 'convert'; readonly operand: Node; readonly unit: UnitName })
  | (NodeBase & { readonly type: 'call'; readonly function: FunctionName; readonly args: readonly Node[] });

export interface Expression {
  readonly text: string;
  readonly root: Node;
}

/** Least and most arguments of each function; the table is the only place a call can resolve. */
const FUNCTIONS: ReadonlyMap<string, { readonly least: number; readonly most: number }> = new Map([
  ['min', { least: 1, most: LIMITS.arguments }],
  ['max', { least: 1, most: LIMITS.arguments }],
  ['sum', { least: 1, most: LIMITS.arguments }],
  ['count', { least: 1, most: LIMITS.arguments }],
  ['ceil', { least: 1, most: 1 }],
  ['floor', { least: 1, most: 1 }],
  ['round', { least: 1, most: 1 }],
  ['abs', { least: 1, most: 1 }],
]);
/** Calls the parser turns into other nodes: `to(x, "MB")` is `x in MB`, `time("…")` a literal. */
const SPECIAL_FORMS = ['time', 'to'];
export const FUNCTION_NAMES: readonly string[] = [...FUNCTIONS.keys(), ...SPECIAL_FORMS].sort();

export const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'in', 'true', 'false']);
const COMPARISONS: ReadonlySet<string> = new Set(['<', '<=', '>', '>=', '==', '!=']);

const describeToken = (t: Token): string => (t.kind === 'string' ? `"${t.text}" (a string)` : `"${t.text}"`);

export function parseExpression(text: string): Expression {
  if (text.length > LIMITS.textLength) {
    throw expressionError('limit', `the expression is ${text.length} characters long, more than ${LIMITS.textLength}`, LIMITS.textLength + 1, 'split it into several computations');
  }
  if (text.trim() === '') {
    throw expressionError('syntax', 'the expression is empty', 1, 'write one, e.g. ceil(records / batch_size)');
  }
  return { text, root: new Parser(text).parseAll() };
}

class Parser {
  private readonly tokens: Token[];
  private position = 0;
  private depth = 0;
  private nodes = 0;

  constructor(private readonly text: string) {
    this.tokens = tokenize(text);
  }

  parseAll(): Node {
    const root = this.parseOr();
    const next = this.peek();
    if (next.kind !== 'end') {
      const todo =
        next.text === ','
          ? 'commas only separate function arguments; write numbers without thousands separators (12400)'
          : next.kind === 'symbol' && next.text === ')'
            ? 'remove it or add the matching "("'
            : 'join the parts with an operator such as + or *';
      throw this.unexpected(next, todo);
    }
    return root;
  }

  private peek(): Token {
    return this.tokens[this.position]!;
  }

  private take(): Token {
    const token = this.tokens[this.position]!;
    if (token.kind !== 'end') this.position++;
    return token;
  }

  private isSymbol(text: string): boolean {
    const t = this.peek();
    return t.kind === 'symbol' && t.text === text;
  }

  private isKeyword(word: string): boolean {
    const t = this.peek();
    return t.kind === 'name' && t.text === word;
  }

  private expectSymbol(text: string, todo: string): Token {
    if (!this.isSymbol(text)) throw this.unexpected(this.peek(), todo);
    return this.take();
  }

  private unexpected(t: Token, todo: string): ExpressionError {
    const what = t.kind === 'end' ? 'the expression ends too early' : `unexpected ${describeToken(t)}`;
    return expressionError('syntax', what, t.start + 1, todo);
  }

  private node<N extends Node>(node: N): N {
    if (++this.nodes > LIMITS.nodes) {
      throw expressionError('limit', `the expression has more than ${LIMITS.nodes} terms`, node.column, 'split it into several computations');
    }
    return node;
  }

  private nested<T>(at: Token, parse: () => T): T {
    if (++this.depth > LIMITS.depth) {
      throw expressionError('limit', `the expression nests deeper than ${LIMITS.depth} levels`, at.start + 1, 'remove redundant parentheses or split it into several computations');
    }
    const result = parse();
    this.depth--;
    return result;
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    while (this.isKeyword('or')) left = this.binary('or', left, this.take(), this.parseAnd());
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseNot();
    while (this.isKeyword('and')) left = this.binary('and', left, this.take(), this.parseNot());
    return left;
  }

  private parseNot(): Node {
    if (!this.isKeyword('not')) return this.parseComparison();
    const op = this.take();
    const operand = this.nested(op, () => this.parseNot());
    return this.node({ type: 'not', operand, start: op.start, end: operand.end, column: op.start + 1 });
  }

  private parseComparison(): Node {
    const left = this.parseConversion();
    const t = this.peek();
    if (t.kind !== 'symbol' || !COMPARISONS.has(t.text)) return left;
    this.take();
    const node = this.binary(t.text as BinaryOperator, left, t, this.parseConversion());
    const again = this.peek();
    if (again.kind === 'symbol' && COMPARISONS.has(again.text)) {
      throw this.unexpected(again, 'comparisons do not chain; join them with "and", as in a < b and b < c');
    }
    return node;
  }

  private parseConversion(): Node {
    let operand = this.parseAdditive();
    while (this.isKeyword('in')) {
      const op = this.take();
      const name = this.peek();
      if (name.kind !== 'name') throw this.unexpected(name, `"in" needs a unit after it, as in x in MB; ${unitHint('')}`);
      this.take();
      operand = this.node({ type: 'convert', operand, unit: this.unitNamed(name), start: operand.start, end: name.end, column: op.start + 1 });
    }
    return operand;
  }

  private parseAdditive(): Node {
    let left = this.parseTerm();
    while (this.isSymbol('+') || this.isSymbol('-')) {
      const op = this.take();
      left = this.binary(op.text as BinaryOperator, left, op, this.parseTerm());
    }
    return left;
  }

  private parseTerm(): Node {
    let left = this.parseUnary();
    while (this.isSymbol('*') || this.isSymbol('/')) {
      const op = this.take();
      left = this.binary(op.text as BinaryOperator, left, op, this.parseUnary());
    }
    return left;
  }

  private parseUnary(): Node {
    if (!this.isSymbol('-')) return this.parsePrimary();
    const op = this.take();
    const operand = this.nested(op, () => this.parseUnary());
    return this.node({ type: 'negate', operand, start: op.start, end: operand.end, column: op.start + 1 });
  }

  private binary(operator: BinaryOperator, left: Node, op: Token, right: Node): Node {
    return this.node({ type: 'binary', operator, left, right, start: left.start, end: right.end, column: op.start + 1 });
  }

  private parsePrimary(): Node {
    const t = this.take();
    switch (t.kind) {
      case 'number':
        return this.parseNumber(t);
      case 'string':
        throw expressionError('syntax', `a string is not a value`, t.start + 1, 'strings only name a unit, as in to(x, "MB"), or a time, as in time("2026-03-01T03:10:00Z")');
      case 'name':
        if (t.text === 'true' || t.text === 'false') return this.literal(booleanValue(t.text === 'true'), t, t);
        if (KEYWORDS.has(t.text)) throw this.unexpected(t, `"${t.text}" is a keyword; a value must come first`);
        if (this.isSymbol('(')) return this.parseCall(t);
        return this.node({ type: 'name', name: t.text, start: t.start, end: t.end, column: t.start + 1 });
      case 'symbol':
        if (t.text === '(') {
          const inner = this.nested(t, () => this.parseOr());
          const close = this.expectSymbol(')', `add the ")" that closes the "(" at column ${t.start + 1}`);
          return { ...inner, start: t.start, end: close.end };
        }
        throw this.unexpected(t, 'expected a number, a name or "("');
      case 'end':
        throw expressionError('syntax', 'the expression ends too early', t.start + 1, 'finish it with a number, a name or "("');
    }
  }

  private literal(value: Value, first: Token, last: Token): Node {
    const problem = outOfRange(value);
    if (problem) {
      const text = this.text.slice(first.start, last.end);
      throw expressionError('range', `the literal ${text.length > 40 ? `${text.slice(0, 39)}…` : text} ${problem}`, first.start + 1, 'use a smaller number');
    }
    return this.node({ type: 'literal', value, start: first.start, end: last.end, column: first.start + 1 });
  }

  /** `12400`, `0.5`, and with a unit right after it: `22 MB`, `30min`. */
  private parseNumber(t: Token): Node {
    const [digits, fraction = ''] = t.text.split('.');
    const amount = fromDecimalDigits(digits!, fraction);
    const next = this.peek();
    if (next.kind !== 'name' || KEYWORDS.has(next.text)) return this.literal(numberValue(amount), t, t);
    this.take();
    return this.literal(quantityValue(amount, this.unitNamed(next)), t, next);
  }

  private unitNamed(t: Token): UnitName {
    const found = findUnit(t.text);
    if (found) return found.name;
    const todo = /^[eE]\d/.test(t.text)
      ? 'exponents are not supported; write the number out (1000, not 1e3)'
      : /^_\d/.test(t.text)
        ? 'digit separators are not supported; write the number out (12400)'
        : `${unitHint(t.text)}; to multiply, write *`;
    throw expressionError('unknown-unit', `unknown unit "${t.text}"`, t.start + 1, todo);
  }

  private parseCall(name: Token): Node {
    const column = name.start + 1;
    const arity = FUNCTIONS.get(name.text);
    if (!arity && !SPECIAL_FORMS.includes(name.text)) {
      throw expressionError('unknown-function', `unknown function "${name.text}"`, column, `the functions are: ${FUNCTION_NAMES.join(', ')}`);
    }
    const open = this.take();
    const args = this.nested(open, () => this.parseArguments(name));
    const close = this.take();
    if (!arity) return name.text === 'to' ? this.parseTo(name, args, close) : this.parseTime(name, args, close);
    if (args.length < arity.least || args.length > arity.most) {
      const wanted = arity.least === arity.most ? `exactly ${arity.least} argument` : `1 to ${arity.most} arguments`;
      throw expressionError('syntax', `${name.text} takes ${wanted}, not ${args.length}`, column, 'fix the argument list');
    }
    const plain = args.map((a) => this.notAString(a, name.text));
    return this.node({ type: 'call', function: name.text as FunctionName, args: plain, start: name.start, end: close.end, column });
  }

  /** Arguments up to and including the closing parenthesis; a string stays a token for to/time. */
  private parseArguments(name: Token): (Node | Token)[] {
    const args: (Node | Token)[] = [];
    if (this.isSymbol(')')) return args;
    for (;;) {
      if (args.length === LIMITS.arguments) {
        throw expressionError('limit', `${name.text} has more than ${LIMITS.arguments} arguments`, name.start + 1, 'split the call, e.g. sum(sum(…), sum(…))');
      }
      const next = this.peek();
      args.push(next.kind === 'string' ? this.take() : this.parseOr());
      if (this.isSymbol(')')) return args;
      this.expectSymbol(',', `separate the arguments of ${name.text} with "," and close them with ")"`);
    }
  }

  private notAString(arg: Node | Token, fn: string): Node {
    if ('type' in arg) return arg;
    throw expressionError('syntax', `${fn} does not take a string`, arg.start + 1, 'pass a number, a quantity or a name');
  }

  private parseTo(name: Token, args: (Node | Token)[], close: Token): Node {
    const [operand, unitArg] = args;
    if (args.length !== 2 || !operand || !unitArg || 'type' in unitArg) {
      throw expressionError('syntax', 'to takes a value and a unit string', name.start + 1, 'write to(x, "MB") or x in MB');
    }
    const unitName = findUnit(unitArg.text)?.name;
    if (!unitName) throw expressionError('unknown-unit', `unknown unit "${unitArg.text}"`, unitArg.start + 2, unitHint(unitArg.text));
    return this.node({ type: 'convert', operand: this.notAString(operand, 'to'), unit: unitName, start: name.start, end: close.end, column: name.start + 1 });
  }

  private parseTime(name: Token, args: (Node | Token)[], close: Token): Node {
    const [arg] = args;
    if (args.length !== 1 || !arg || 'type' in arg) {
      throw expressionError('syntax', 'time takes one string', name.start + 1, 'write time("2026-03-01T03:10:00Z") or time("03:10")');
    }
    const reading = readTime(arg.text.trim());
    if (reading.kind === 'instant' || reading.kind === 'clock') {
      return this.literal(reading.kind === 'instant' ? instantValue(reading.ms) : clockValue(reading.ms), name, close);
    }
    const { problem, todo } = reading.kind === 'invalid' ? reading : { problem: `"${arg.text}" is not a time`, todo: 'write an instant like 2026-03-01T03:10:00Z or a clock time like 03:10' };
    throw expressionError('syntax', problem, arg.start + 2, todo);
  }
}
