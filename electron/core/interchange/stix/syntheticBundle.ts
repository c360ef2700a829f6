import type { StixJson } from './stixRead';

/**
 * A seeded, ATT&CK-shaped STIX 2.1 bundle for the import tests and bench/stix-import.ts: producer
 * identities, TLP-marked intelligence (attack patterns, malware, tools, intrusion sets), indicators
 * and the relationships between them, sightings (some negative), opinions, objects with several
 * versions, deprecated objects, and revoked objects with revoked-by chains whose live end is known.
 * The caller passes the PRNG (electron/testing/seededRandom.ts), so the same seed gives the same bundle.
 */

export interface SyntheticBundle {
  bundle: { type: 'bundle'; id: string; objects: StixJson[] };
  /** Revoked id → the live end of its revoked-by chain. */
  supersededBy: Map<string, string>;
  /** Revoked ids with no replacement. */
  revokedOutright: string[];
  deprecated: string[];
}

const TLP = [
  'marking-definition--613f2e26-407d-48c7-9eca-b8e91df99dc9',
  'marking-definition--34098fce-860f-48ae-8e50-ebd3cc5e41da',
  'marking-definition--f88d31f6-486f-44da-b317-01333bde0b82',
  'marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed',
];
const SDO_TYPES = ['attack-pattern', 'malware', 'tool', 'intrusion-set', 'campaign'] as const;
const WORDS = ['Shadow', 'Copper', 'Lantern', 'Falcon', 'Night', 'Cobalt', 'Ember', 'Quartz', 'Harbor', 'Vector', 'Signal', 'Drift'];

export function syntheticBundle(random: () => number, size: { objects: number; revoked: number; deprecated: number }): SyntheticBundle {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(random() * 4)]}${hex(3)}-${hex(12)}`;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const time = (day: number) => new Date(Date.UTC(2023, 0, 1) + day * 86_400_000 + Math.floor(random() * 86_400_000)).toISOString();
  const objects: StixJson[] = [];
  const identities = Array.from({ length: 5 }, (_, i) => {
    const o = { type: 'identity', spec_version: '2.1', id: `identity--${uuid()}`, created: time(0), modified: time(0), name: `${pick(WORDS)} Intel ${i}`, identity_class: i === 0 ? 'individual' : 'organization' };
    objects.push(o);
    return o.id;
  });
  const common = (type: string, day: number) => {
    const at = time(day);
    return { type, spec_version: '2.1', id: `${type}--${uuid()}`, created: at, modified: at, created_by_ref: pick(identities), object_marking_refs: [TLP[Math.floor(random() * random() * 4)]!] };
  };

  // The intelligence: a fifth of the objects, then indicators, then links between them.
  const sdos: StixJson[] = [];
  const budget = size.objects - objects.length;
  for (let i = 0; i < Math.floor(budget * 0.2); i++) {
    const type = pick(SDO_TYPES);
    const o: StixJson = { ...common(type, i % 300), name: `${pick(WORDS)} ${pick(WORDS)} ${i}`, description: `${type} observed in cluster ${i % 97}`, confidence: Math.floor(random() * 101) };
    if (type === 'attack-pattern') o.external_references = [{ source_name: 'mitre-attack', external_id: `T${1000 + i}`, url: `https://attack.mitre.org/techniques/T${1000 + i}` }];
    if (type === 'malware') o.is_family = true;
    sdos.push(o);
  }
  const indicators: StixJson[] = [];
  for (let i = 0; i < Math.floor(budget * 0.3); i++) {
    const at = time(i % 300);
    indicators.push({ ...common('indicator', i % 300), name: `beacon address ${i}`, pattern: `[ipv4-addr:value = '10.${i % 250}.${Math.floor(i / 250) % 250}.${i % 7}']`, pattern_type: 'stix', valid_from: at, indicator_types: ['malicious-activity'] });
  }
  objects.push(...sdos, ...indicators);

  // Revoked-by chains of fresh objects A1 → … → An → live (1 to 3 revoked links). Every tenth
  // chain is broken: its last revoked link names no replacement, so none of it is superseded.
  const supersededBy = new Map<string, string>();
  const revokedOutright: string[] = [];
  let revoked = 0;
  for (let c = 0; revoked < size.revoked; c++) {
    const length = Math.min(1 + Math.floor(random() * 3), size.revoked - revoked);
    const chain = Array.from({ length: length + 1 }, (_, i) => ({ ...common('attack-pattern', 100 + i), name: `chained technique ${c}.${i}`, confidence: 50 }));
    const broken = c % 10 === 9;
    chain.forEach((o, i) => {
      if (i === length) return;
      Object.assign(o, { revoked: true, modified: new Date(Date.parse(o.created) + 1000).toISOString() });
      revoked++;
      if (broken) revokedOutright.push(o.id);
      else supersededBy.set(o.id, chain[length]!.id);
      if (!broken || i < length - 1) objects.push({ ...common('relationship', 301), relationship_type: 'revoked-by', source_ref: o.id, target_ref: chain[i + 1]!.id });
    });
    // A broken chain's live end is not in the bundle at all: nothing points to it.
    sdos.push(...(broken ? chain.slice(0, length) : chain));
    objects.push(...(broken ? chain.slice(0, length) : chain));
  }
  const liveSdos = sdos.filter((o) => o.revoked !== true);
  const deprecated: string[] = [];
  for (const o of liveSdos.slice(0, size.deprecated)) {
    o.x_mitre_deprecated = true;
    deprecated.push(o.id as string);
  }

  // Links, sightings, opinions and second versions fill the rest.
  while (objects.length < size.objects) {
    const r = random();
    if (r < 0.75) {
      const from = pick(indicators);
      const to = pick(sdos);
      objects.push({ ...common('relationship', 200), relationship_type: random() < 0.8 ? 'indicates' : 'related-to', source_ref: from.id, target_ref: to.id });
    } else if (r < 0.9) {
      const of = pick(indicators);
      objects.push({ ...common('sighting', 250), sighting_of_ref: of.id, count: 1 + Math.floor(random() * 9), where_sighted_refs: [pick(identities)], ...(random() < 0.1 ? { x_opencti_negative: true } : {}) });
    } else if (r < 0.95) {
      objects.push({ ...common('opinion', 260), opinion: pick(['strongly-disagree', 'disagree', 'neutral', 'agree', 'strongly-agree']), object_refs: [pick(indicators).id] });
    } else {
      const o = pick(indicators);
      objects.push({ ...o, modified: new Date(Date.parse(o.modified as string) + 3_600_000 * (1 + Math.floor(random() * 100))).toISOString(), description: 'updated' });
    }
  }
  return { bundle: { type: 'bundle', id: `bundle--${uuid()}`, objects }, supersededBy, revokedOutright, deprecated };
}

export interface CollectionBundle {
  bundle: { type: 'bundle'; id: string; objects: StixJson[] };
  /** The `x-mitre-collection` manifest: too large for evidence content. */
  collection: StixJson;
}

/**
 * A MITRE ATT&CK-shaped bundle whose `x-mitre-collection` lists `entries` objects in
 * `x_mitre_contents` ({object_ref, object_modified}, some 110 characters each): at 20,000 the
 * manifest is about 2.2 MB, too large for evidence, as in the real Enterprise ATT&CK bundles. A
 * handful of ordinary objects come with it, among them a relationship and an opinion that refer to
 * the collection. Same PRNG, same bundle.
 */
export function collectionBundle(random: () => number, entries: number): CollectionBundle {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(random() * 4)]}${hex(3)}-${hex(12)}`;
  const at = '2024-04-23T14:07:01.372Z';
  const identity = { type: 'identity', spec_version: '2.1', id: `identity--${uuid()}`, created: '2017-06-01T00:00:00.000Z', modified: at, name: 'The MITRE Corporation', identity_class: 'organization' };
  const statement = { type: 'marking-definition', spec_version: '2.1', id: `marking-definition--${uuid()}`, created: '2017-06-01T00:00:00.000Z', created_by_ref: identity.id, definition_type: 'statement', definition: { statement: 'Copyright 2015-2024, The MITRE Corporation.' } };
  const common = (type: string) => ({ type, spec_version: '2.1', id: `${type}--${uuid()}`, created: '2020-01-14T17:18:32.126Z', modified: at, created_by_ref: identity.id, object_marking_refs: [statement.id] });
  const technique = { ...common('attack-pattern'), name: 'Phishing', external_references: [{ source_name: 'mitre-attack', external_id: 'T1566', url: 'https://attack.mitre.org/techniques/T1566' }], x_mitre_version: '2.2' };
  const malware = { ...common('malware'), name: 'Sample RAT', is_family: true };
  const uses = { ...common('relationship'), relationship_type: 'uses', source_ref: malware.id, target_ref: technique.id };
  const ordinary: StixJson[] = [identity, statement, technique, malware, uses];
  const listed = ordinary.map((o) => ({ object_ref: o.id, object_modified: o.modified ?? o.created }));
  const types = ['attack-pattern', 'relationship', 'malware', 'tool', 'course-of-action'];
  while (listed.length < entries) listed.push({ object_ref: `${types[Math.floor(random() * types.length)]!}--${uuid()}`, object_modified: at });
  const collection = {
    ...common('x-mitre-collection'), name: 'Enterprise ATT&CK', description: 'ATT&CK for Enterprise provides a knowledge base of real-world adversary behavior.',
    x_mitre_version: '15.1', x_mitre_attack_spec_version: '3.2.0', x_mitre_contents: listed,
  };
  const related = { ...common('relationship'), relationship_type: 'related-to', source_ref: malware.id, target_ref: collection.id };
  const opinion = { ...common('opinion'), opinion: 'agree', object_refs: [collection.id] };
  return { bundle: { type: 'bundle', id: `bundle--${uuid()}`, objects: [...ordinary, collection, related, opinion] }, collection };
}
