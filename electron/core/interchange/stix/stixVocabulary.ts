import { createHash } from 'node:crypto';
import { CLASSIFICATIONS, type Classification, type EvidenceKind } from '../../../../shared/domain/enums';
import type { StixJson, StixObject } from './stixRead';

/**
 * The fixed parts of the STIX mapping (resources/stix-mapping.md): which evidence kind a STIX type
 * is, which classification a marking means, and how STIX ids become case names.
 */

const SCO_TYPES = [
  'artifact', 'autonomous-system', 'directory', 'domain-name', 'email-addr', 'email-message', 'file', 'ipv4-addr', 'ipv6-addr',
  'mac-addr', 'mutex', 'network-traffic', 'process', 'software', 'url', 'user-account', 'windows-registry-key', 'x509-certificate',
] as const;

/**
 * Evidence kind by STIX type. Observations (observed-data, sighting) are telemetry; intelligence
 * about adversaries, their tools and indicators, and the observables (SCOs) a feed describes
 * without saying it saw them, is threat_intel; a report is a vendor report, an analysis result a
 * tool result, what analysts write (note, opinion, grouping) an analyst note. Reference data
 * (identity, location, markings) and anything the mapping does not know is self_report: kept,
 * shown, never counted as hard evidence.
 */
export const KIND_BY_TYPE: Readonly<Record<string, EvidenceKind>> = {
  'observed-data': 'telemetry',
  sighting: 'telemetry',
  indicator: 'threat_intel',
  'attack-pattern': 'threat_intel',
  campaign: 'threat_intel',
  'course-of-action': 'threat_intel',
  incident: 'threat_intel',
  infrastructure: 'threat_intel',
  'intrusion-set': 'threat_intel',
  malware: 'threat_intel',
  'threat-actor': 'threat_intel',
  tool: 'threat_intel',
  vulnerability: 'threat_intel',
  relationship: 'threat_intel',
  ...Object.fromEntries(SCO_TYPES.map((t) => [t, 'threat_intel'])),
  'malware-analysis': 'tool_result',
  report: 'vendor_report',
  note: 'analyst_note',
  opinion: 'analyst_note',
  grouping: 'analyst_note',
  identity: 'self_report',
  location: 'self_report',
  'marking-definition': 'self_report',
};

/**
 * Types whose objects the mapping uses beyond keeping them (a claim, a binding, a producer, a
 * classification, a lifecycle move) or that are plain intelligence. Anything else (custom x-…
 * objects, extension-definition, language-content, a type this table does not know) is kept
 * verbatim only, and listed as such in the import report.
 */
export const kindOf = (type: string): EvidenceKind => KIND_BY_TYPE[type] ?? 'self_report';
export const keptVerbatimOnly = (type: string): boolean => KIND_BY_TYPE[type] === undefined;

/** The TLP markings STIX 2.1 predefines (TLP 1.0) and those of the TLP 2.0 extension. */
export const TLP_MARKINGS: Readonly<Record<string, { name: string; classification: Classification }>> = {
  'marking-definition--613f2e26-407d-48c7-9eca-b8e91df99dc9': { name: 'TLP:WHITE', classification: 'public' },
  'marking-definition--34098fce-860f-48ae-8e50-ebd3cc5e41da': { name: 'TLP:GREEN', classification: 'internal' },
  'marking-definition--f88d31f6-486f-44da-b317-01333bde0b82': { name: 'TLP:AMBER', classification: 'confidential' },
  'marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed': { name: 'TLP:RED', classification: 'restricted' },
  'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487': { name: 'TLP:CLEAR', classification: 'public' },
  'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb': { name: 'TLP:GREEN', classification: 'internal' },
  'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421': { name: 'TLP:AMBER', classification: 'confidential' },
  'marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003': { name: 'TLP:AMBER+STRICT', classification: 'confidential' },
  'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1': { name: 'TLP:RED', classification: 'restricted' },
};
const TLP_LEVELS: Readonly<Record<string, Classification>> = {
  white: 'public', clear: 'public', green: 'internal', amber: 'confidential', 'amber+strict': 'confidential', red: 'restricted',
};
const TLP_EXTENSION = 'extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d';

/** The classification a marking-definition object in a bundle means, or null when it is not TLP. */
export function classificationOfMarking(m: StixJson): Classification | null {
  const known = TLP_MARKINGS[m.id as string];
  if (known) return known.classification;
  const definition = m.definition as { tlp?: unknown } | undefined;
  if (m.definition_type === 'tlp' && typeof definition?.tlp === 'string') return TLP_LEVELS[definition.tlp.toLowerCase()] ?? null;
  const ext = (m.extensions as Record<string, { tlp_2_0?: unknown }> | undefined)?.[TLP_EXTENSION];
  if (typeof ext?.tlp_2_0 === 'string') return TLP_LEVELS[ext.tlp_2_0.toLowerCase()] ?? null;
  if (typeof m.name === 'string' && /^TLP:/i.test(m.name)) return TLP_LEVELS[m.name.slice(4).toLowerCase()] ?? null;
  return null;
}

export const higher = (a: Classification, b: Classification): Classification => (CLASSIFICATIONS.indexOf(a) >= CLASSIFICATIONS.indexOf(b) ? a : b);

/** Every marking an object carries, object-level and granular (a granular marking classifies the whole stored object). */
export function markingRefs(o: StixJson): string[] {
  const refs = [...((o.object_marking_refs as string[] | undefined) ?? [])];
  for (const g of (o.granular_markings as { marking_ref?: string }[] | undefined) ?? []) if (g.marking_ref) refs.push(g.marking_ref);
  return refs;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
/**
 * The case name of a STIX id: the id itself when it fits an evidence id (every STIX id of the form
 * `type--uuid` does), else a stable digest of it. The content keeps the real id either way.
 */
export function nameOf(stixId: string, prefix = ''): string {
  const name = `${prefix}${stixId}`;
  if (NAME.test(name) && name.length <= 110) return name;
  return `${prefix}stix-${createHash('sha256').update(stixId, 'utf8').digest('hex').slice(0, 40)}`;
}

const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
/**
 * The source id of an object version kept as a source document (too large for evidence):
 * `<STIX id>@<version>`, since a source is immutable and every version needs its own; one that
 * does not fit a chosen name (128 characters, shared/domain/schemas.ts) is a digest of both.
 */
export function sourceNameOf(stixId: string, version: string): string {
  const name = `${stixId}@${version}`;
  if (SOURCE_NAME.test(name)) return name;
  return `stix-${createHash('sha256').update(`${stixId}\u0000${version}`, 'utf8').digest('hex').slice(0, 40)}`;
}

/** Claim names derived from STIX objects: one per relationship, per sighted object, per object an opinion is about. */
export const CLAIM_PREFIX = { relationship: 'stix.rel:', sighted: 'stix.sighted:', about: 'stix.about:' } as const;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const shortId = (id: string) => id.slice(id.indexOf('--') + 2, id.indexOf('--') + 10);

/** What an object is called in a title or a claim: its name, value or abstract, else its type and a short id. */
export function labelOf(o: StixJson): string {
  for (const f of ['name', 'value', 'abstract', 'path', 'key', 'user_id', 'display_name', 'subject'] as const) {
    const v = o[f];
    if (typeof v === 'string' && v.trim() !== '') return clip(v.trim().replace(/\s+/g, ' '), 200);
  }
  return `${String(o.type)} ${shortId(String(o.id))}`;
}

/** The lineage title of an object: its label, or for the objects that link others what they link. */
export function titleOf(o: StixObject, labelOfId: (id: string) => string): string {
  const j = o.json;
  if (o.type === 'relationship') {
    const ends = `${typeof j.source_ref === 'string' ? labelOfId(j.source_ref) : '?'} ${String(j.relationship_type)} ${typeof j.target_ref === 'string' ? labelOfId(j.target_ref) : '?'}`;
    return clip(`relationship: ${ends}`, 500);
  }
  if (o.type === 'sighting') return clip(`sighting of ${typeof j.sighting_of_ref === 'string' ? labelOfId(j.sighting_of_ref) : '?'}`, 500);
  if (o.type === 'opinion') return clip(`opinion (${String(j.opinion)}) ${shortId(o.id)}`, 500);
  return clip(labelOf(j), 500);
}

export { clip };
