import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { parseInputValue } from './inputValue';
import { parseExpression } from './parse';
import { failure, runFailure } from './testing';
import { formatValue } from './values';

// Names resolve only through the inputs Map and a fixed function table: no expression text ever
// reaches a JS property lookup, so prototype names are just unknown names.
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', 'isPrototypeOf', '__defineGetter__', 'eval', 'Function', 'globalThis', 'process', 'require'];

describe('prototype and global names never reach JS objects', () => {
  it.each(PROTOTYPE_NAMES)('%s as a name is an unknown name', (name) => {
    const error = runFailure(`${name} + 1`, { records: '12,400' });
    expect(error).toMatchObject({ code: 'unknown-name', column: 1 });
    expect(error.message).toBe(`unknown name "${name}" at column 1; the inputs are: records`);
  });

  it.each(PROTOTYPE_NAMES)('%s as a function is an unknown function', (name) => {
    expect(failure(() => parseExpression(`${name}(1)`))).toMatchObject({ code: 'unknown-function', column: 1 });
  });

  it.each(PROTOTYPE_NAMES)('%s as a unit is an unknown unit', (name) => {
    expect(failure(() => parseExpression(`2 ${name}`))).toMatchObject({ code: 'unknown-unit', column: 3 });
    expect(failure(() => parseExpression(`2 MB in ${name}`))).toMatchObject({ code: 'unknown-unit', column: 9 });
    expect(failure(() => parseExpression(`to(2 MB, "${name}")`))).toMatchObject({ code: 'unknown-unit', column: 11 });
    expect(failure(() => parseInputValue(`2 ${name}`))).toMatchObject({ code: 'unknown-unit' });
    expect(failure(() => parseInputValue('2', name))).toMatchObject({ code: 'unknown-unit' });
  });

  it('an input may be called __proto__ and is read from the Map like any other', () => {
    const inputs = new Map([['__proto__', parseInputValue('3')], ['constructor', parseInputValue('4')]]);
    expect(formatValue(evaluate(parseExpression('__proto__ * constructor'), inputs))).toBe('12');
  });

  it('the property syntax of JS is not syntax here', () => {
    for (const text of ['records.constructor', 'records["constructor"]', 'records[0]', '(() => 1)()', 'records?.x', '`1`', 'a; b', 'new Date()']) {
      expect(failure(() => parseExpression(text)).code).toMatch(/^(syntax|unknown-unit)$/);
    }
  });

  it('an inherited Object.prototype property does not make a name known', () => {
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.injected = 1;
    try {
      expect(runFailure('injected').code).toBe('unknown-name');
      expect(failure(() => parseExpression('injected(1)')).code).toBe('unknown-function');
    } finally {
      delete polluted.injected;
    }
  });
});
