import type { z } from 'zod';

/**
 * Where a request schema lets unbounded input through (issue 12.4): every string must have a
 * maximum length and every array a maximum size, so no field can carry megabytes into a handler,
 * a receipt or an error message. Used by the contract test; returns the paths that are open.
 */
type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const hasCheck = (def: Def, check: string) =>
  ((def.checks as { _zod: { def: { check: string } } }[] | undefined) ?? []).some((c) => c._zod.def.check === check);

export function unboundedFields(schema: z.ZodType, path = '(request)'): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      // Formats (ISO times, UUIDs) have a grammar of bounded length; free text needs a max.
      return def.format !== undefined || hasCheck(def, 'max_length') || hasCheck(def, 'length_equals') ? [] : [path];
    case 'array':
      return [...(hasCheck(def, 'max_length') ? [] : [`${path}[] (no maximum size)`]), ...unboundedFields(def.element as z.ZodType, `${path}[]`)];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, v]) => unboundedFields(v, `${path}.${k}`));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return unboundedFields(def.innerType as z.ZodType, path);
    case 'pipe':
      return unboundedFields(def.in as z.ZodType, path);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((o, i) => unboundedFields(o, `${path}|${i}`));
    case 'intersection':
      return [...unboundedFields(def.left as z.ZodType, path), ...unboundedFields(def.right as z.ZodType, path)];
    case 'record':
      return [`${path}{} (open record)`];
    case 'unknown':
    case 'any':
      return [`${path} (any value)`];
    default:
      return [];
  }
}
