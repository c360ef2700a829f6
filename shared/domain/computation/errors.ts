/**
 * The one error a computation can fail with. `column` is 1-based and counts UTF-16 code units of
 * the expression text (of the quote, for an input), which is what a text field's selection uses;
 * the text is treated as one line. The message names the column too, so it reads on its own.
 */
export type ExpressionErrorCode =
  | 'syntax'
  | 'limit'
  | 'unknown-name'
  | 'unknown-function'
  | 'unknown-unit'
  | 'type'
  | 'division-by-zero'
  | 'range'
  | 'input';

export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';

  constructor(
    readonly code: ExpressionErrorCode,
    message: string,
    readonly column: number,
  ) {
    super(message);
  }
}

/** `<what failed> at column N; <what to do>`: the shape every message of this module has. */
export function expressionError(code: ExpressionErrorCode, what: string, column: number, todo: string): ExpressionError {
  return new ExpressionError(code, `${what} at column ${column}; ${todo}`, column);
}
