import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../../../../shared/domain/canonical';
import { IsoTime } from '../../../../shared/domain/schemas';
import { invalid } from '../../errors';
import { sizeOfImportFile } from '../importFile';

/**
 * Reading a STIX bundle (issue 10.3): the whole file is checked before anything is written, and the
 * first thing that does not fit is named by where it stood (`objects[12] (indicator--…)`), the field
 * and what was expected. Only the fields the mapping reads are checked (resources/stix-mapping.md);
 * everything else in an object is kept verbatim and never interpreted.
 */

export type StixJson = Record<string, unknown>;

export interface StixObject {
  /** Zero-based position in the bundle's `objects`. */
  index: number;
  id: string;
  type: string;
  /** 2.0 when the object or its bundle says so (2.0 objects carry no spec_version of their own). */
  specVersion: '2.0' | '2.1';
  json: StixJson;
  /** The object as canonical JSON: what the case stores and an export re-emits. */
  content: string;
}

export interface StixDocument {
  bundleId: string;
  specVersion: '2.0' | '2.1';
  objects: StixObject[];
  sha256: string;
  bytes: number;
}

/** Evidence content is limited to this many characters (`Content`, shared/ipc/channels/evidence.ts). */
export const MAX_OBJECT_CHARS = 1_000_000;
/**
 * A larger object (a MITRE `x-mitre-collection` manifest is some 1.6 MB) is kept as a source
 * document, limited to this many characters (`source:add`); one larger still cannot be kept at all.
 */
export const MAX_SOURCE_CHARS = 5_000_000;
/** Whether an object is too large for evidence and is kept as a source document instead (stixMap.ts). */
export const keptAsSource = (o: Pick<StixObject, 'content'>): boolean => o.content.length > MAX_OBJECT_CHARS;

const CHANNEL = 'stix:import';
const TIMESTAMPS = ['created', 'modified', 'valid_from', 'valid_until', 'first_observed', 'last_observed', 'first_seen', 'last_seen', 'published'] as const;
const BOOLEANS = ['revoked', 'x_mitre_deprecated', 'x_opencti_negative'] as const;
const STRINGS = ['name', 'created_by_ref', 'identity_class', 'relationship_type', 'source_ref', 'target_ref', 'sighting_of_ref', 'abstract'] as const;
const STRING_LISTS = ['object_marking_refs', 'object_refs'] as const;
export const OPINIONS = ['strongly-disagree', 'disagree', 'neutral', 'agree', 'strongly-agree'] as const;

export function refuse(where: string, field: string, expected: string, path: (string | number)[] = []): never {
  throw invalid(`${CHANNEL}: ${where}: ${field}: ${expected}; nothing was imported`, [{ path, message: expected }]);
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(value);
  if (text === undefined) return 'nothing';
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};
const isObject = (v: unknown): v is StixJson => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads and checks a bundle file; the size limit holds before a byte is parsed. */
export function readStixFile(path: string, maxBytes: number): StixDocument {
  sizeOfImportFile(path, maxBytes, (field, expected) => refuse(path, field, expected));
  const buf = readFileSync(path);
  if (buf.length > maxBytes) refuse(path, 'size', `the file grew past the limit of ${maxBytes.toLocaleString('en')} bytes while being read`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return refuse(path, '(bytes)', 'not UTF-8 text');
  }
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const reason = (err as Error).message;
    const truncated = /end of (JSON|data)|Unterminated/i.test(reason) ? ': the file ends before the JSON document does (truncated?)' : '';
    return refuse(path, '(document)', `not valid JSON (${reason})${truncated}`);
  }
  return { ...checkBundle(value), sha256: createHash('sha256').update(buf).digest('hex'), bytes: buf.length };
}

/** Checks a parsed bundle: the envelope, then every object's identity and the fields the mapping reads. */
export function checkBundle(value: unknown): Omit<StixDocument, 'sha256' | 'bytes'> {
  if (!isObject(value)) refuse('the document', '(document)', `expected a STIX bundle (a JSON object with "type": "bundle"), got ${Array.isArray(value) ? 'an array' : shown(value)}`);
  if (value.type !== 'bundle') {
    const hint = typeof value.type === 'string' && typeof value.id === 'string' ? `; this is a single ${value.type} object, wrap it in {"type": "bundle", "id": "bundle--…", "objects": [...]}` : '';
    refuse('the document', 'type', `expected "bundle", got ${shown(value.type)}${hint}`, ['type']);
  }
  if (typeof value.id !== 'string' || !/^bundle--\S{1,200}$/.test(value.id)) refuse('the bundle', 'id', `expected "bundle--<uuid>", got ${shown(value.id)}`, ['id']);
  const declared = value.spec_version;
  if (declared !== undefined && declared !== '2.0' && declared !== '2.1') refuse('the bundle', 'spec_version', `expected "2.0" or "2.1" (or none), got ${shown(declared)}`, ['spec_version']);
  // A 2.0 bundle declares its version; a 2.1 bundle has no spec_version of its own.
  const specVersion = declared === '2.0' ? '2.0' : '2.1';
  const raw = value.objects ?? [];
  if (!Array.isArray(raw)) refuse('the bundle', 'objects', `expected an array of STIX objects, got ${shown(raw)}`, ['objects']);
  const objects = raw.map((o, index) => checkObject(o, index, specVersion));
  return { bundleId: value.id, specVersion, objects };
}

function checkObject(o: unknown, index: number, bundleVersion: '2.0' | '2.1'): StixObject {
  const at = (field: string) => ['objects', index, field];
  if (!isObject(o)) refuse(`objects[${index}]`, '(object)', `expected a STIX object, got ${Array.isArray(o) ? 'an array' : shown(o)}`, ['objects', index]);
  const type = o.type;
  if (typeof type !== 'string' || !/^[a-z0-9][a-z0-9-]{1,249}$/.test(type)) refuse(`objects[${index}]`, 'type', `expected a STIX type such as "indicator", got ${shown(type)}`, at('type'));
  const id = o.id;
  if (typeof id !== 'string' || !id.startsWith(`${type}--`) || !/^\S{1,300}$/.test(id) || id.length === type.length + 2) {
    refuse(`objects[${index}] (${type})`, 'id', `expected "${type}--<uuid>", got ${shown(id)}`, at('id'));
  }
  const where = `objects[${index}] (${id.length > 100 ? `${id.slice(0, 100)}…` : id})`;
  const spec = o.spec_version;
  if (spec !== undefined && spec !== '2.0' && spec !== '2.1') refuse(where, 'spec_version', `expected "2.0" or "2.1", got ${shown(spec)}`, at('spec_version'));
  if (o.confidence !== undefined && (typeof o.confidence !== 'number' || !Number.isInteger(o.confidence) || o.confidence < 0 || o.confidence > 100)) {
    refuse(where, 'confidence', `expected an integer from 0 to 100, got ${shown(o.confidence)}`, at('confidence'));
  }
  for (const f of TIMESTAMPS) {
    if (o[f] !== undefined && !IsoTime.safeParse(o[f]).success) refuse(where, f, `expected a STIX timestamp such as 2026-11-20T03:12:44.000Z, got ${shown(o[f])}`, at(f));
  }
  for (const f of BOOLEANS) if (o[f] !== undefined && typeof o[f] !== 'boolean') refuse(where, f, `expected true or false, got ${shown(o[f])}`, at(f));
  for (const f of STRINGS) if (o[f] !== undefined && typeof o[f] !== 'string') refuse(where, f, `expected a string, got ${shown(o[f])}`, at(f));
  for (const f of STRING_LISTS) {
    if (o[f] !== undefined && (!Array.isArray(o[f]) || !(o[f] as unknown[]).every((x) => typeof x === 'string'))) refuse(where, f, `expected a list of STIX ids, got ${shown(o[f])}`, at(f));
  }
  if (o.granular_markings !== undefined && (!Array.isArray(o.granular_markings) || !o.granular_markings.every((g) => isObject(g) && (g.marking_ref === undefined || typeof g.marking_ref === 'string')))) {
    refuse(where, 'granular_markings', 'expected a list of {marking_ref, selectors}', at('granular_markings'));
  }
  if (o.external_references !== undefined && (!Array.isArray(o.external_references) || !o.external_references.every(isObject))) {
    refuse(where, 'external_references', `expected a list of external references, got ${shown(o.external_references)}`, at('external_references'));
  }
  if (type === 'relationship' && typeof o.relationship_type !== 'string') refuse(where, 'relationship_type', `a relationship names its type, got ${shown(o.relationship_type)}`, at('relationship_type'));
  if (type === 'opinion' && !(OPINIONS as readonly unknown[]).includes(o.opinion)) refuse(where, 'opinion', `expected one of ${OPINIONS.join(', ')}, got ${shown(o.opinion)}`, at('opinion'));
  if (o.count !== undefined && (typeof o.count !== 'number' || !Number.isInteger(o.count) || o.count < 0)) refuse(where, 'count', `expected a whole number, got ${shown(o.count)}`, at('count'));
  let content: string;
  try {
    content = canonicalJson(o);
  } catch (err) {
    return refuse(where, '(object)', (err as Error).message);
  }
  if (content.length > MAX_SOURCE_CHARS) {
    const chars = (n: number) => n.toLocaleString('en');
    refuse(where, '(object)', `the object is ${chars(content.length)} characters as canonical JSON; an object up to ${chars(MAX_OBJECT_CHARS)} is kept as evidence and one up to ${chars(MAX_SOURCE_CHARS)} as a source document, a larger one cannot be kept: import the bundle without it`, ['objects', index]);
  }
  return { index, id, type, specVersion: spec ?? bundleVersion, json: o, content };
}
