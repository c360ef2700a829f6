/**
 * Tokens of an expression. Only ASCII is meaningful outside a string literal; anything else is
 * refused with the column where it stands, and common habits from other languages (`=`, `!`, `&&`,
 * `||`, `.5`) get a message saying what to write instead.
 */
import { expressionError } from './errors';

export const MAX_NAME_LENGTH = 64;

export type TokenKind = 'number' | 'name' | 'string' | 'symbol' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The source text, except for a string: its content without the quotes. */
  readonly text: string;
  /** 0-based offset of the first character, and one past the last. */
  readonly start: number;
  readonly end: number;
}

const SYMBOLS = ['<=', '>=', '==', '!=', '+', '-', '*', '/', '(', ')', ',', '<', '>'] as const;

const MISTAKES: ReadonlyMap<string, string> = new Map([
  ['&&', 'write "and"'],
  ['||', 'write "or"'],
  ['&', 'write "and"'],
  ['|', 'write "or"'],
  ['!', 'write "not" (or != to compare)'],
  ['=', 'write == to compare'],
  ['.', 'a decimal point needs digits on both sides, as in 0.5'],
  ["'", 'strings use double quotes, as in to(x, "MB")'],
  ['^', 'there is no power operator; multiply the factors out'],
  ['%', 'there is no percent operator; divide by 100'],
]);

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isNameStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isNamePart = (c: string): boolean => isNameStart(c) || isDigit(c);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (isSpace(c)) {
      i++;
    } else if (isDigit(c)) {
      const start = i;
      while (i < text.length && isDigit(text[i]!)) i++;
      if (text[i] === '.' && isDigit(text[i + 1] ?? '')) {
        i++;
        while (i < text.length && isDigit(text[i]!)) i++;
      }
      tokens.push({ kind: 'number', text: text.slice(start, i), start, end: i });
    } else if (isNameStart(c)) {
      const start = i;
      while (i < text.length && isNamePart(text[i]!)) i++;
      if (i - start > MAX_NAME_LENGTH) {
        throw expressionError('limit', `the name "${text.slice(start, start + 20)}…" is longer than ${MAX_NAME_LENGTH} characters`, start + 1, 'use a shorter input name');
      }
      tokens.push({ kind: 'name', text: text.slice(start, i), start, end: i });
    } else if (c === '"') {
      const close = text.indexOf('"', i + 1);
      const newline = text.slice(i + 1, close === -1 ? undefined : close).search(/[\r\n]/);
      if (close === -1 || newline !== -1) {
        throw expressionError('syntax', 'the string is not closed', i + 1, 'end it with " on the same line');
      }
      tokens.push({ kind: 'string', text: text.slice(i + 1, close), start: i, end: close + 1 });
      i = close + 1;
    } else {
      const symbol = SYMBOLS.find((s) => text.startsWith(s, i));
      if (symbol) {
        tokens.push({ kind: 'symbol', text: symbol, start: i, end: i + symbol.length });
        i += symbol.length;
        continue;
      }
      const mistake = text.startsWith('&&', i) || text.startsWith('||', i) ? text.slice(i, i + 2) : c;
      const todo = MISTAKES.get(mistake) ?? 'expressions use numbers, names, + - * / ( ) , < <= > >= == != and "strings"';
      const shown = JSON.stringify(String.fromCodePoint(text.codePointAt(i)!));
      throw expressionError('syntax', `unexpected character ${shown}`, i + 1, todo);
    }
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}
