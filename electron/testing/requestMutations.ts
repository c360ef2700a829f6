import fc from 'fast-check';
import type { z } from 'zod';
import type { Channel } from '../../shared/ipc/contract';
import { SEEDS, type CaseIds } from './channelSeeds';

/**
 * Test helper (not a test): fuzzed requests for channelFuzz.ts. A plan is a valid-looking request
 * (channelSeeds.ts) plus zero to three mutations: wrong types, missing and extra fields, own
 * `__proto__` / `constructor` / `prototype` keys, 1–10 MB strings, 10,000-level nesting, arrays of
 * up to 10,001 copies, NaN /
 * ±Infinity / -0, lone surrogates and NUL bytes, and paths of the channel's own zod request schema
 * (so absent optional fields and every enum value get a turn). Mutations stay small recipes until
 * the call: thousands of plans cost nothing, and each says in words what it did.
 */

const HUGE = 1 << 20;

export type Key = string | number;
export type Path = Key[];
interface HugeText {
  kind: 'huge';
  unit: string;
  length: number;
}
type Payload = { kind: 'value'; value: unknown } | HugeText | { kind: 'deep'; shape: 'array' | 'object'; depth: number };
type Mutation =
  | { op: 'set'; at: number; payload: Payload }
  | { op: 'drop'; at: number }
  | { op: 'extra'; at: number; key: string | HugeText; payload: Payload }
  /** A path of the request schema: an enum or literal gets one of its values (`pick`), any other the payload. */
  | { op: 'slot'; at: number; pick: number; payload: Payload }
  | { op: 'splice'; at: number; pos: number; text: string }
  /** An array of the request made `count` copies of its first element (past every maximum size). */
  | { op: 'repeat'; at: number; count: number };

export interface Plan {
  channel: Channel;
  actor: string;
  seed: unknown;
  mutations: Mutation[];
}

const ODD_NUMBERS = [NaN, Infinity, -Infinity, -0, 0, -1, 0.5, 1e21, 2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MAX_VALUE];
const ODD_TEXT = ['', ' ', '\u0000', 'a\u0000b', '\uD800', '\uDFFF', 'x\uDBFF', '\uFEFF', '\u202Eevil', '🙂', '%', '_', '*', '"', "'; DROP TABLE claim; --", '../../etc/passwd'];
/** Text just inside and just past the maxima the contract uses (ids 128, names 200, reasons 4000, paths 4096…). */
const LONG_TEXT = [128, 129, 200, 201, 500, 501, 1024, 1025, 2000, 2001, 3999, 4000, 4001, 4096, 4097, 8001, 100_001].map((n) => 'a'.repeat(n));
const WRONG_TYPES = [null, undefined, true, false, [], {}, [null], [[]], '1', { length: 1 }];
/** Parsed, not written as literals, so `__proto__` is an own key of the object (as in a JSON body off the wire). */
const PROTO_JSON = [
  '{"__proto__":{"polluted":"yes","role":"admin","tenants":["*"]}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
  '{"__proto__":null}',
  '{"__proto__":[]}',
  '["__proto__","constructor"]',
];
const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'extra', '', '\u0000', '\uD800'];
const SPLICES = ['\uD800', '\uDC00', '\u0000', '\uFFFE', '\u202E', '\u200B', '%', '*', '"', "'", '\\', '\n'];
const HUGE_UNITS = ['A', 'a b ', 'é', '🙂', '\u0000', '\uD800', '<script>'];
const ACTORS = ['admin', 'admin', 'admin', 'alice', 'bob', 'carol', 'faye'];

const hugeText: fc.Arbitrary<HugeText> = fc.record({
  kind: fc.constant('huge' as const),
  unit: fc.constantFrom(...HUGE_UNITS),
  length: fc.integer({ min: HUGE, max: 10 * HUGE }),
});

const payload = (ids: CaseIds): fc.Arbitrary<Payload> =>
  fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom<unknown>(...ODD_NUMBERS, ...ODD_TEXT, ...WRONG_TYPES, ...ids.revisions, ...ids.claims, ...ids.actors).map((value) => ({ kind: 'value' as const, value })) },
    { weight: 2, arbitrary: fc.constantFrom(...LONG_TEXT).map((value) => ({ kind: 'value' as const, value })) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_JSON).map((json) => ({ kind: 'value' as const, value: JSON.parse(json) as unknown })) },
    {
      weight: 3,
      arbitrary: fc
        .oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.integer(), fc.double())
        .map((value) => ({ kind: 'value' as const, value })),
    },
    { weight: 1, arbitrary: hugeText },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('deep' as const), shape: fc.constantFrom('array' as const, 'object' as const), depth: fc.oneof(fc.constant(10_000), fc.integer({ min: 1_000, max: 10_000 })) }),
    },
  );

const mutation = (ids: CaseIds): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), at: fc.nat(), payload: payload(ids) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('drop' as const), at: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('extra' as const),
        at: fc.nat(),
        key: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...EXTRA_KEYS) }, { weight: 1, arbitrary: hugeText }),
        payload: payload(ids),
      }),
    },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('slot' as const), at: fc.nat(), pick: fc.nat(), payload: payload(ids) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('splice' as const), at: fc.nat(), pos: fc.nat(), text: fc.constantFrom(...SPLICES) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('repeat' as const), at: fc.nat(), count: fc.constantFrom(2, 101, 501, 2001, 10_001) }) },
  );

/** A quarter of the requests go as they are (the handlers' own checks), the rest with one to three mutations. */
export const planArbitrary = (channel: Channel, ids: CaseIds): fc.Arbitrary<Plan> =>
  fc.record({
    channel: fc.constant(channel),
    actor: fc.constantFrom(...ACTORS),
    seed: (SEEDS[channel] as (ids: CaseIds) => fc.Arbitrary<unknown>)(ids),
    mutations: fc.oneof({ weight: 1, arbitrary: fc.constant<Mutation[]>([]) }, { weight: 3, arbitrary: fc.array(mutation(ids), { minLength: 1, maxLength: 3 }) }),
  });

export interface Slot {
  path: Path;
  values?: readonly unknown[];
}

/** Just enough of zod 4's `_zod.def` to walk a request schema. */
interface LooseDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
}

/** Every path of a request schema (array elements as index 0), with enum and literal values. */
export function slotsOf(schema: z.ZodType, path: Path = [], out: Slot[] = []): Slot[] {
  const def = schema._zod.def as unknown as LooseDef;
  if (def.innerType) return slotsOf(def.innerType, path, out);
  if (def.type === 'pipe' && def.in) return slotsOf(def.in, path, out);
  if (def.type === 'union') {
    for (const option of def.options ?? []) slotsOf(option, path, out);
    return out;
  }
  if (def.type === 'enum' || def.type === 'literal') {
    out.push({ path, values: def.entries ? Object.values(def.entries) : (def.values ?? []) });
    return out;
  }
  out.push({ path });
  if (def.type === 'object') for (const [key, field] of Object.entries(def.shape ?? {})) slotsOf(field, [...path, key], out);
  if (def.type === 'array' && def.element) slotsOf(def.element, [...path, 0], out);
  return out;
}

export const isContainer = (v: unknown): v is Record<Key, unknown> => v !== null && typeof v === 'object';
export const isPlainObject = (v: unknown): v is Record<string, unknown> => isContainer(v) && !Array.isArray(v);
/** An own data property even for `__proto__` (an assignment would set the prototype instead). */
const define = (target: Record<Key, unknown>, key: Key, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
const REMOVE = Symbol('remove');

/** `root` with the value at `path` replaced (or removed), copying only the containers on the way. */
export function setAt(root: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [Key, ...Key[]];
  const copy: Record<Key, unknown> = Array.isArray(root)
    ? [...(root as unknown[])]
    : isContainer(root)
      ? Object.defineProperties({}, Object.getOwnPropertyDescriptors(root))
      : typeof head === 'number' ? [] : {};
  if (rest.length === 0 && next === REMOVE) delete copy[head];
  else define(copy, head, setAt(isContainer(root) ? root[head] : undefined, rest, next));
  return copy;
}

/** Nodes of a request down to a bounded depth (a 10,000-level payload is entered only a little way). */
function nodesOf(value: unknown): { path: Path; value: unknown }[] {
  const out: { path: Path; value: unknown }[] = [];
  const stack: { path: Path; value: unknown }[] = [{ path: [], value }];
  while (stack.length > 0) {
    const node = stack.shift()!;
    out.push(node);
    if (!isContainer(node.value) || node.path.length >= 8) continue;
    const keys: Key[] = Array.isArray(node.value) ? node.value.slice(0, 50).map((_, i) => i) : Object.keys(node.value).slice(0, 50);
    for (const key of keys) stack.push({ path: [...node.path, key], value: node.value[key] });
  }
  return out;
}

const build = (p: Payload | HugeText): unknown => {
  if (p.kind === 'value') return p.value;
  if (p.kind === 'huge') return p.unit.repeat(Math.ceil(p.length / p.unit.length)).slice(0, p.length);
  let v: unknown = 'bottom';
  for (let i = 0; i < p.depth; i++) v = p.shape === 'array' ? [v] : { nested: v };
  return v;
};

const fmtPath = (path: Path) => (path.length === 0 ? '(request)' : path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${brief(k)}`)).join(''));
const describePayload = (p: Payload | HugeText): string =>
  p.kind === 'value'
    ? brief(p.value)
    : p.kind === 'huge'
      ? `${JSON.stringify(p.unit)}×${p.length.toLocaleString('en-US')} (${(p.length / 2 ** 20).toFixed(1)} M chars)`
      : `${p.shape === 'array' ? '[[[…]]]' : '{nested:{nested:…}}'} ${p.depth.toLocaleString('en-US')} levels deep`;

/** The request a plan stands for, and what each mutation did, in words. */
export function materialize(plan: Plan, slots: readonly Slot[]): { request: unknown; notes: string[] } {
  let request = plan.seed;
  const notes: string[] = [];
  for (const m of plan.mutations) {
    const nodes = nodesOf(request);
    const pickNode = (candidates: typeof nodes) => candidates[m.at % Math.max(1, candidates.length)];
    if (m.op === 'set') {
      const node = pickNode(nodes)!;
      request = setAt(request, node.path, build(m.payload));
      notes.push(`set ${fmtPath(node.path)} = ${describePayload(m.payload)}`);
    } else if (m.op === 'drop') {
      const node = pickNode(nodes.filter((n) => typeof n.path.at(-1) === 'string'));
      if (node) request = setAt(request, node.path, REMOVE);
      notes.push(node ? `drop ${fmtPath(node.path)}` : 'drop (no field)');
    } else if (m.op === 'extra') {
      const node = pickNode(nodes.filter((n) => isPlainObject(n.value)));
      const key = typeof m.key === 'string' ? m.key : (build(m.key) as string);
      if (node) request = setAt(request, [...node.path, key], build(m.payload));
      notes.push(node ? `add ${fmtPath([...node.path, key])} = ${describePayload(m.payload)}` : 'add (no object)');
    } else if (m.op === 'slot') {
      const slot = slots[m.at % slots.length]!;
      const value = slot.values && slot.values.length > 0 ? slot.values[m.pick % slot.values.length] : build(m.payload);
      request = setAt(request, slot.path, value);
      notes.push(`slot ${fmtPath(slot.path)} = ${slot.values ? brief(value) : describePayload(m.payload)}`);
    } else if (m.op === 'repeat') {
      const node = pickNode(nodes.filter((n) => Array.isArray(n.value) && n.value.length > 0));
      if (node) request = setAt(request, node.path, new Array<unknown>(m.count).fill((node.value as unknown[])[0]));
      notes.push(node ? `repeat ${fmtPath(node.path)}[0] ${m.count.toLocaleString('en-US')} times` : 'repeat (no array)');
    } else {
      const node = pickNode(nodes.filter((n) => typeof n.value === 'string'));
      if (node) {
        const s = node.value as string;
        const at = m.pos % (s.length + 1);
        request = setAt(request, node.path, s.slice(0, at) + m.text + s.slice(at));
      }
      notes.push(node ? `splice ${brief(m.text)} into ${fmtPath(node.path)}` : 'splice (no text)');
    }
  }
  return { request, notes };
}

/** Whether a request carries a 1–10 MB string, as a value or as a key (near the top; where fuzzing puts them). */
export const holdsHugeText = (request: unknown): boolean =>
  nodesOf(request).some((n) => (typeof n.value === 'string' && n.value.length >= HUGE) || n.path.some((k) => typeof k === 'string' && k.length >= HUGE));

/** A short, printable rendering of any value: long strings cut, deep nesting counted, -0 and NaN kept. */
export function brief(value: unknown, depth = 0): string {
  if (typeof value === 'string') {
    return value.length > 60 ? `${JSON.stringify(value.slice(0, 24))}…(${value.length.toLocaleString('en-US')} chars)` : JSON.stringify(value);
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (!isContainer(value)) return String(value);
  const array = Array.isArray(value);
  if (depth >= 3) {
    let levels = 0;
    for (let v: unknown = value; isContainer(v) && levels < 1e6; levels++) v = Array.isArray(v) ? v[0] : Object.values(v)[0];
    return array ? `[…${levels} deep]` : `{…${levels} deep}`;
  }
  const keys = array ? value.map((_, i) => i) : Object.keys(value);
  const parts = keys.slice(0, 12).map((k) => (array ? brief(value[k], depth + 1) : `${brief(k)}: ${brief(value[k], depth + 1)}`));
  if (keys.length > 12) parts.push(`…${keys.length - 12} more`);
  return array ? `[${parts.join(', ')}]` : `{${parts.join(', ')}}`;
}
