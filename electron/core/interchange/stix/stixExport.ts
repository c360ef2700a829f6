import { createHash, randomUUID } from 'node:crypto';
import type { Classification, Relation } from '../../../../shared/domain/enums';
import type { StixExportResult } from '../../../../shared/ipc/channels/stix';
import type { ServiceContext } from '../../context';
import { readCaseMeta } from '../../services/caseMeta';
import { aclFilter } from '../../store/acl';
import { readTransaction } from '../../store/caseFile';
import { toContext, type RevisionRow } from '../../store/evidenceRows';
import { writeNewFile } from '../newFile';
import type { StixJson } from './stixRead';

/**
 * stix:export (issue 10.3): what the acting reviewer can see as one STIX 2.1 bundle. Every stored
 * STIX version is re-emitted exactly as it came in (all versions of an object, so a consumer sees
 * its history); the case's own items become STIX objects of the case's identity: an evidence
 * lineage a `note` whose versions are its revisions, a claim a `grouping` of the objects bound to
 * it, a binding a `relationship` from the evidence to the claim (resources/stix-mapping.md). STIX
 * objects too large for evidence were kept as source documents; they are re-emitted from there.
 * Everything is read in one transaction and written to a new file.
 */

/** The workbench's UUIDv5 namespace; ids of a case's own objects are UUIDv5 of it and the case id. */
const ERWB_NAMESPACE = '6f1d7c52-2a0e-5b8e-9d3c-4e8f0a1b2c3d';

export function uuidv5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** STIX 2.1 predefines these TLP markings; an export marks the case's own objects with them. */
const TLP_OBJECTS: Record<Classification, StixJson> = {
  public: { type: 'marking-definition', spec_version: '2.1', id: 'marking-definition--613f2e26-407d-48c7-9eca-b8e91df99dc9', created: '2017-01-20T00:00:00.000Z', definition_type: 'tlp', name: 'TLP:WHITE', definition: { tlp: 'white' } },
  internal: { type: 'marking-definition', spec_version: '2.1', id: 'marking-definition--34098fce-860f-48ae-8e50-ebd3cc5e41da', created: '2017-01-20T00:00:00.000Z', definition_type: 'tlp', name: 'TLP:GREEN', definition: { tlp: 'green' } },
  confidential: { type: 'marking-definition', spec_version: '2.1', id: 'marking-definition--f88d31f6-486f-44da-b317-01333bde0b82', created: '2017-01-20T00:00:00.000Z', definition_type: 'tlp', name: 'TLP:AMBER', definition: { tlp: 'amber' } },
  restricted: { type: 'marking-definition', spec_version: '2.1', id: 'marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed', created: '2017-01-20T00:00:00.000Z', definition_type: 'tlp', name: 'TLP:RED', definition: { tlp: 'red' } },
};

/** Binding relations as relationship types (STIX allows custom ones; these say what the binding says). */
export const RELATIONSHIP_TYPE: Record<Relation, string> = {
  FULL_SUPPORT: 'supports',
  PARTIAL_SUPPORT: 'partially-supports',
  REFUTES: 'refutes',
  CONTEXT_ONLY: 'gives-context-to',
  IRRELEVANT: 'is-irrelevant-to',
  UNKNOWN: 'related-to',
};

/** A stored time as a STIX timestamp (UTC, milliseconds). */
const stixTime = (at: string) => new Date(at).toISOString();
const plusOneMs = (at: string) => new Date(Date.parse(at) + 1).toISOString();
/** What STIX 2.1 does not allow as a relationship's source or target (relationship.json). */
const NOT_A_RELATIONSHIP_END = /^(relationship|sighting|bundle|marking-definition|language-content)--/;
const isStixMediaType = (m: string) => /^application\/stix\+json\b/i.test(m);

/** A stored STIX object, or null when the content is not one (then it is exported like any evidence). */
function verbatimObject(r: { media_type: string; content: string }): StixJson | null {
  if (!isStixMediaType(r.media_type)) return null;
  try {
    const o = JSON.parse(r.content) as unknown;
    return typeof o === 'object' && o !== null && !Array.isArray(o) && typeof (o as StixJson).id === 'string' && typeof (o as StixJson).type === 'string' ? (o as StixJson) : null;
  } catch {
    return null;
  }
}

export function exportStix(ctx: ServiceContext, path: string): StixExportResult {
  const bundleId = `bundle--${randomUUID()}`;
  const hash = createHash('sha256');
  const counts = { objects: 0, verbatim: 0, fromSources: 0, notes: 0, groupings: 0, relationships: 0, other: 0 };
  let bytes = 0;
  writeNewFile(path, 'stix:export', (put) => {
    const write = (text: string) => {
      const buf = Buffer.from(text, 'utf8');
      hash.update(buf);
      bytes += buf.length;
      put(buf);
    };
    write(`{"type":"bundle","id":${JSON.stringify(bundleId)},"objects":[`);
    readTransaction(ctx.db, () => {
      for (const [what, o] of stixObjects(ctx)) {
        write(`${counts.objects > 0 ? ',' : ''}\n${JSON.stringify(o)}`);
        counts.objects++;
        if (what === 'fromSources') counts.verbatim++;
        counts[what]++;
      }
    });
    write('\n]}\n');
  });
  const { other: _other, ...written } = counts;
  return { path, bytes, sha256: hash.digest('hex'), bundleId, ...written };
}

type Emitted = ['verbatim' | 'fromSources' | 'notes' | 'groupings' | 'relationships' | 'other', StixJson];

function* stixObjects(ctx: ServiceContext): Generator<Emitted> {
  const db = ctx.db;
  const meta = readCaseMeta(db);
  const ns = uuidv5(meta.caseId, ERWB_NAMESPACE);
  const identityId = `identity--${uuidv5('case', ns)}`;
  const caseCreated = stixTime(meta.createdAt || ctx.now());
  yield ['other', { type: 'identity', spec_version: '2.1', id: identityId, created: caseCreated, modified: caseCreated, name: meta.name, identity_class: 'system', description: `Evidence Review Workbench case ${meta.caseId}` }];

  const revAcl = aclFilter(ctx.actor, 'r');
  /** The STIX object each exported revision is: the stored object's id, or its lineage's note. */
  const objectOf = new Map<string, string>();
  const emittedMarkings = new Set<string>();
  const used = new Set<Classification>();
  /** Per note: when its first exported version was written, and its latest modified. */
  const versions = new Map<string, { created: string; modified: string }>();
  const revisions = db.prepare(`SELECT r.*, l.title FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE ${revAcl.sql} ORDER BY r.evidence_id, r.revision`);
  /** Hashes of the STIX objects re-emitted so far: the same object kept twice goes out once. */
  const emitted = new Set<string>();
  for (const r of revisions.iterate(...revAcl.params) as Iterable<RevisionRow & { title: string; created_at: string }>) {
    const stored = verbatimObject(r);
    if (stored) {
      emitted.add(r.content_sha256);
      objectOf.set(r.revision_id, stored.id as string);
      if (stored.type === 'marking-definition') emittedMarkings.add(stored.id as string);
      yield ['verbatim', stored];
      continue;
    }
    // A lineage is one note; its revisions are the note's versions, modified strictly increasing.
    const noteId = `note--${uuidv5(`evidence:${r.evidence_id}`, ns)}`;
    objectOf.set(r.revision_id, noteId);
    const previous = versions.get(noteId);
    let modified = stixTime(r.created_at);
    if (previous && modified <= previous.modified) modified = plusOneMs(previous.modified);
    const created = previous?.created ?? modified;
    versions.set(noteId, { created, modified });
    const context = toContext(r);
    used.add(context.classification);
    yield ['notes', {
      type: 'note', spec_version: '2.1', id: noteId, created, modified, created_by_ref: identityId,
      abstract: r.title, content: r.content, authors: [context.producer], object_refs: [identityId],
      ...(context.confidence !== null ? { confidence: Math.round(context.confidence * 100) } : {}),
      object_marking_refs: [TLP_OBJECTS[context.classification].id as string],
      external_references: [{ source_name: 'erwb', external_id: r.revision_id, hashes: { 'SHA-256': r.content_sha256 } }],
      x_erwb_evidence: { revisionId: r.revision_id, evidenceId: r.evidence_id, revision: r.revision, kind: r.kind, state: r.state, mediaType: r.media_type, contentSha256: r.content_sha256, supersedes: r.supersedes, context },
    }];
  }

  // Objects too large for evidence, kept as source documents of their own (stixMap.ts).
  const srcAcl = aclFilter(ctx.actor, 's');
  const sources = db.prepare(`SELECT s.source_id, s.content, s.content_sha256, s.media_type FROM source_document s WHERE s.media_type LIKE 'application/stix+json%' AND ${srcAcl.sql} ORDER BY s.source_id`);
  for (const s of sources.iterate(...srcAcl.params) as Iterable<{ source_id: string; content: string; content_sha256: string; media_type: string }>) {
    const stored = verbatimObject(s);
    // A whole bundle someone filed as a source is not one object; it stays in the case.
    if (!stored || stored.type === 'bundle' || emitted.has(s.content_sha256)) continue;
    emitted.add(s.content_sha256);
    if (stored.type === 'marking-definition') emittedMarkings.add(stored.id as string);
    yield ['fromSources', stored];
  }

  // Claims (current generation) and their bindings to what this export holds.
  const claimAcl = aclFilter(ctx.actor, 'c');
  const bindingRows = db
    .prepare(
      `SELECT b.claim_id, b.generation, b.revision_id, b.relation, b.role, b.rationale, b.created_at, r.classification AS revision_classification
         FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
         JOIN evidence_revision r ON r.revision_id = b.revision_id
        WHERE ${claimAcl.sql} AND ${revAcl.sql} ORDER BY b.claim_id, b.binding_id`,
    )
    .all(...claimAcl.params, ...revAcl.params) as { claim_id: string; generation: number; revision_id: string; relation: Relation; role: string; rationale: string; created_at: string; revision_classification: Classification }[];
  const byClaim = new Map<string, typeof bindingRows>();
  for (const b of bindingRows) byClaim.set(b.claim_id, [...(byClaim.get(b.claim_id) ?? []), b]);
  const claims = db.prepare(`SELECT claim_id, statement, scope, policy, generation, tenant, classification, author, created_at FROM claim c WHERE ${claimAcl.sql} ORDER BY claim_id`).all(...claimAcl.params) as {
    claim_id: string; statement: string; scope: string; policy: string; generation: number; tenant: string; classification: Classification; author: string; created_at: string;
  }[];
  for (const c of claims) {
    const bound = byClaim.get(c.claim_id) ?? [];
    const groupingId = `grouping--${uuidv5(`claim:${c.claim_id}`, ns)}`;
    const created = stixTime(c.created_at);
    const modified = bound.map((b) => stixTime(b.created_at)).reduce((a, b) => (b > a ? b : a), created);
    const refs = [...new Set(bound.map((b) => objectOf.get(b.revision_id)).filter((x): x is string => x !== undefined))];
    // The grouping lists what it binds: it is as classified as the claim and everything bound to it.
    const groupingClass = bound.map((b) => b.revision_classification).reduce((x, y) => (rank(y) > rank(x) ? y : x), c.classification);
    used.add(groupingClass);
    // Every binding is listed on the grouping; those whose evidence may be a relationship's end
    // (STIX forbids relationships, sightings, markings and language content there) also as a relationship.
    yield ['groupings', {
      type: 'grouping', spec_version: '2.1', id: groupingId, created, modified, created_by_ref: identityId, name: c.statement, context: 'unspecified',
      object_refs: refs.length > 0 ? refs : [identityId], object_marking_refs: [TLP_OBJECTS[groupingClass].id as string],
      x_erwb_claim: {
        claimId: c.claim_id, generation: c.generation, scope: JSON.parse(c.scope) as unknown, policy: JSON.parse(c.policy) as unknown, tenant: c.tenant, author: c.author,
        bindings: bound.filter((b) => objectOf.has(b.revision_id)).map((b) => ({ object: objectOf.get(b.revision_id)!, revisionId: b.revision_id, relation: b.relation, role: b.role, rationale: b.rationale })),
      },
    }];
    for (const b of bound) {
      const source = objectOf.get(b.revision_id);
      if (!source || NOT_A_RELATIONSHIP_END.test(source)) continue;
      const classification = [c.classification, b.revision_classification].reduce((x, y) => (rank(y) > rank(x) ? y : x));
      used.add(classification);
      const at = stixTime(b.created_at);
      yield ['relationships', {
        type: 'relationship', spec_version: '2.1', id: `relationship--${uuidv5(`binding:${b.claim_id}|${b.generation}|${b.revision_id}`, ns)}`, created: at, modified: at,
        created_by_ref: identityId, relationship_type: RELATIONSHIP_TYPE[b.relation], source_ref: source, target_ref: groupingId,
        ...(b.rationale.trim() !== '' ? { description: b.rationale } : {}), object_marking_refs: [TLP_OBJECTS[classification].id as string],
        x_erwb_binding: { claimId: b.claim_id, generation: b.generation, revisionId: b.revision_id, relation: b.relation, role: b.role },
      }];
    }
  }
  // The TLP markings the case's own objects use, unless a stored copy was already re-emitted.
  for (const c of ['public', 'internal', 'confidential', 'restricted'] as const) {
    const m = TLP_OBJECTS[c];
    if (used.has(c) && !emittedMarkings.has(m.id as string)) yield ['other', m];
  }
}

const RANKS: Record<Classification, number> = { public: 0, internal: 1, confidential: 2, restricted: 3 };
const rank = (c: Classification) => RANKS[c];

