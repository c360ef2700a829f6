/**
 * Canonical JSON in the style of RFC 8785 (JCS), used for audit receipt bodies and decision
 * fingerprints (DESIGN §3.4, §3.7). Two machines must produce byte-identical text for the same
 * value, so anything JSON.stringify would silently drop, coerce or serialise via a hook is refused
 * here rather than hashed in some lossy form.
 *
 * Deliberate differences from plain JSON.stringify:
 * - object keys are sorted by UTF-16 code units (JS's default string order, which is what JCS asks);
 * - NaN/±Infinity, bigint, functions, symbols, undefined in arrays and Dates throw instead of
 *   becoming null / being dropped / calling toJSON;
 * - only plain objects and arrays are accepted as containers: a Map or class instance would
 *   otherwise serialise as `{}` and two different values would hash the same;
 * - cycles throw instead of overflowing the stack.
 * Strings are escaped exactly as JSON.stringify does (ES2019 well-formed output, so a lone surrogate
 * becomes `\udxxx` rather than invalid UTF-8).
 */
export function canonicalJson(value: unknown): string {
  return serialise(value, '$', new Set());
}

function serialise(value: unknown, path: string, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) fail('non-finite number', path);
      // Number → string in ECMAScript is exactly the JCS number format; JSON.stringify(-0) is "0".
      return JSON.stringify(value);
    case 'bigint':
      fail('bigint', path);
    case 'function':
      fail('function', path);
    case 'symbol':
      fail('symbol', path);
    case 'undefined':
      fail('undefined value', path);
    // 'object' (null included) goes on below.
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (ancestors.has(obj)) fail('circular reference', path);
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) return serialiseArray(obj, path, ancestors);
    if (obj instanceof Date) fail('Date (pass an ISO-8601 string instead)', path);
    if (!isPlainObject(obj)) fail(`non-plain object ${describeCtor(obj)}`, path);
    return serialiseObject(obj as Record<string, unknown>, path, ancestors);
  } finally {
    ancestors.delete(obj);
  }
}

function serialiseArray(arr: readonly unknown[], path: string, ancestors: Set<object>): string {
  const parts: string[] = [];
  // Index loop rather than map: map skips holes, and a hole must be reported like undefined.
  for (let i = 0; i < arr.length; i++) {
    const itemPath = `${path}[${i}]`;
    const item = arr[i];
    if (item === undefined) fail('undefined value in array', itemPath);
    parts.push(serialise(item, itemPath, ancestors));
  }
  return `[${parts.join(',')}]`;
}

function serialiseObject(obj: Record<string, unknown>, path: string, ancestors: Set<object>): string {
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    // Mirrors JSON: an absent optional field and an explicit undefined must hash the same.
    if (v === undefined) continue;
    const keyPath = childPath(path, key);
    parts.push(`${JSON.stringify(key)}:${serialise(v, keyPath, ancestors)}`);
  }
  return `{${parts.join(',')}}`;
}

function isPlainObject(obj: object): boolean {
  const proto: unknown = Object.getPrototypeOf(obj);
  return proto === Object.prototype || proto === null;
}

function describeCtor(obj: object): string {
  const name = (obj as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'object';
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

function fail(what: string, path: string): never {
  throw new TypeError(`canonicalJson: ${what} at ${path}`);
}
