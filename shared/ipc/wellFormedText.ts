import type { IssueDetail } from './envelope';

/**
 * Text must be well-formed Unicode before it is hashed or stored (issue 9.2): SQLite stores a lone
 * UTF-16 surrogate as U+FFFD while a receipt's hash covers the original, so one such character
 * would make a correct case unverifiable for good. The contract refuses it, naming the field.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** One issue per string (value or key) in `value` that holds a lone surrogate, with its path. */
export function illFormedText(value: unknown, path: (string | number)[] = []): IssueDetail[] {
  if (typeof value === 'string') {
    const at = value.search(LONE_SURROGATE);
    return at < 0 ? [] : [{ path, message: `contains a lone UTF-16 surrogate at index ${at}: text must be well-formed Unicode` }];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => illFormedText(v, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(LONE_SURROGATE.test(k) ? [{ path: [...path, k], message: 'the field name contains a lone UTF-16 surrogate' }] : []),
      ...illFormedText(v, [...path, k]),
    ]);
  }
  return [];
}
