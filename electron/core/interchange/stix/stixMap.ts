import { createHash } from 'node:crypto';
import type { BindingRole, Classification, LifecycleState, Relation } from '../../../../shared/domain/enums';
import type { ValidityContext } from '../../../../shared/domain/schemas';
import { BundleRecord } from '../../../../shared/interchange/bundle';
import type { StixMappingReport } from '../../../../shared/ipc/channels/stix';
import type { LocatedRecord } from '../bundleRead';
import { keptAsSource, refuse, type StixDocument, type StixJson, type StixObject } from './stixRead';
import { CLAIM_PREFIX, classificationOfMarking, clip, higher, keptVerbatimOnly, kindOf, labelOf, markingRefs, nameOf, sourceNameOf, titleOf } from './stixVocabulary';

/**
 * STIX → evidence bundle records (issue 10.3), a pure function of the document and of what the
 * case already holds: every object version becomes one evidence revision holding the object
 * verbatim, sightings, relationships and opinions become explicit claims and bindings, and
 * revocation is returned as a plan the importer applies after the records (resources/stix-mapping.md).
 * A version too large for evidence (a collection manifest listing every object) is kept verbatim
 * as a source document instead: no lineage, no claims; what refers to it treats it as an object
 * the case does not hold as evidence.
 */

/** What the case already holds for one STIX id (only what the importer may see). */
export interface CaseLineage {
  evidenceId: string;
  title: string;
  /** Classification and state of the latest revision. */
  classification: Classification;
  state: LifecycleState;
  revisions: { revision: number; sha256: string; sourceVersion: string | null }[];
}

export interface StixMapOptions {
  tenant: string;
  /** The classification of objects without a TLP marking. */
  classification: Classification;
  lineage: (stixId: string) => CaseLineage | undefined;
  /** The case id of a visible claim with this name, if there is one. */
  claim: (name: string) => string | undefined;
  /** The id the case gives a new item of this name in this scope (services/scopedNames.ts). */
  caseName: (name: string, scope: { tenant: string; classification: Classification }) => string;
  /** The content hash of the visible source document with this case id, if there is one. */
  sourceSha256?: (sourceId: string) => string | undefined;
}

/** A revoked object whose newest version this import stored: the importer moves that revision. */
export interface RevocationPlan {
  id: string;
  evidenceName: string;
  revision: number;
}

export type MappingReport = Omit<StixMappingReport, 'superseded' | 'revoked' | 'lifecycleNotApplied'>;

export interface StixMapping {
  records: LocatedRecord[];
  report: MappingReport;
  revocations: RevocationPlan[];
  /** revoked-by relationships of this bundle: revoked id → replacement id. */
  revokedBy: Map<string, string>;
  /** Ids whose newest version, here or in the case, is revoked. */
  revokedIds: Set<string>;
  /** The evidence name each STIX id of this bundle was written under. */
  evidenceNames: Map<string, string>;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const MAX_IDS_LISTED = 100;

/** A STIX timestamp as a string that sorts in time order, to the nanosecond. */
export function versionSortKey(ts: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(ts);
  if (m) return `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}`;
  const iso = new Date(ts).toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23).padEnd(9, '0')}`;
}
const versionOf = (o: StixJson): string | null => (typeof o.modified === 'string' ? o.modified : typeof o.created === 'string' ? o.created : null);

const OPINION_RELATION: Record<string, { relation: Relation; role: BindingRole }> = {
  'strongly-agree': { relation: 'FULL_SUPPORT', role: 'SUPPORTING' },
  agree: { relation: 'FULL_SUPPORT', role: 'SUPPORTING' },
  neutral: { relation: 'CONTEXT_ONLY', role: 'CONTEXT' },
  disagree: { relation: 'REFUTES', role: 'SUPPORTING' },
  'strongly-disagree': { relation: 'REFUTES', role: 'SUPPORTING' },
};

export function stixToBundle(doc: Pick<StixDocument, 'bundleId' | 'specVersion' | 'objects'>, options: StixMapOptions): StixMapping {
  const report: MappingReport = {
    bundleId: doc.bundleId, specVersion: doc.specVersion, objects: doc.objects.length, stixIds: 0, versionsStored: 0, versionsUnchanged: 0,
    olderThanCase: [], byType: {}, keptVerbatimOnly: {}, classifications: {}, markingsNotMapped: {},
    claims: { relationships: 0, sightings: 0, about: 0 }, deprecated: { count: 0, ids: [] }, relationshipsToRevoked: [], notMapped: [],
    keptAsSource: { count: 0, ids: [], versions: [] },
  };
  const listId = (list: { count: number; ids: string[] }, id: string) => {
    list.count++;
    if (list.ids.length < MAX_IDS_LISTED) list.ids.push(id);
  };

  // Versions of each id, oldest first; the same version twice must be the same object.
  const versions = new Map<string, StixObject[]>();
  for (const o of doc.objects) {
    const kind = kindOf(o.type);
    report.byType[o.type] = { count: (report.byType[o.type]?.count ?? 0) + 1, kind };
    const list = versions.get(o.id) ?? [];
    const same = list.find((v) => versionOf(v.json) !== null && versionOf(v.json) === versionOf(o.json));
    if (same && same.content !== o.content) {
      refuse(`objects[${o.index}] (${o.id})`, 'modified', `objects[${same.index}] is the same version (${versionOf(o.json)}) with other content; a STIX version never changes, a change is a new modified`, ['objects', o.index, 'modified']);
    }
    if (!list.some((v) => v.content === o.content)) list.push(o);
    versions.set(o.id, list);
  }
  for (const list of versions.values()) {
    list.sort((a, b) => {
      const [va, vb] = [versionOf(a.json), versionOf(b.json)];
      // Objects without modified or created (most SCOs) keep the order they came in.
      return va === null || vb === null ? a.index - b.index : versionSortKey(va) < versionSortKey(vb) ? -1 : versionSortKey(va) > versionSortKey(vb) ? 1 : 0;
    });
  }
  report.stixIds = versions.size;
  const newest = (id: string) => versions.get(id)?.at(-1);

  // Markings: those the bundle defines, then the TLP ones STIX predefines.
  const markingClass = new Map<string, Classification | null>();
  for (const o of doc.objects) if (o.type === 'marking-definition') markingClass.set(o.id, classificationOfMarking(o.json));
  const classOfObject = (o: StixJson): Classification => {
    let c: Classification | null = null;
    for (const ref of markingRefs(o)) {
      const mapped = markingClass.has(ref) ? markingClass.get(ref)! : classificationOfMarking({ id: ref });
      if (mapped) c = c ? higher(c, mapped) : mapped;
      else report.markingsNotMapped[ref] = (report.markingsNotMapped[ref] ?? 0) + 1;
    }
    return c ?? options.classification;
  };

  // A lineage lives in one compartment: the highest of its versions and of what the case holds.
  const lineageClass = new Map<string, Classification>();
  const existing = new Map<string, CaseLineage | undefined>();
  for (const [id, list] of versions) {
    const inCase = options.lineage(id);
    existing.set(id, inCase);
    let c = list.map((v) => classOfObject(v.json)).reduce(higher);
    if (inCase) {
      // Never lower a lineage; and its later versions must land under the id its first one has.
      c = higher(c, inCase.classification);
      const wouldBe = options.caseName(nameOf(id), { tenant: options.tenant, classification: c });
      if (wouldBe !== inCase.evidenceId) {
        refuse(`objects[${list.at(-1)!.index}] (${id})`, 'object_marking_refs', `this version, in tenant ${options.tenant} at ${c}, would be ${wouldBe} in this case, but its earlier versions are ${inCase.evidenceId}; a lineage keeps one compartment, so import it with the tenant and marking of those versions`);
      }
    }
    lineageClass.set(id, c);
  }
  const classOfId = (id: string): Classification => lineageClass.get(id) ?? existing.get(id)?.classification ?? options.lineage(id)?.classification ?? options.classification;
  const labelOfId = (id: string): string => {
    const o = newest(id);
    return o ? labelOf(o.json) : (options.lineage(id)?.title ?? id);
  };
  const identity = (ref: string): { name: string; person: boolean } => {
    const o = newest(ref);
    if (o && o.type === 'identity') return { name: labelOf(o.json), person: o.json.identity_class === 'individual' };
    return { name: options.lineage(ref)?.title ?? ref, person: false };
  };

  const sources: LocatedRecord[] = [];
  const evidence: LocatedRecord[] = [];
  const claims: LocatedRecord[] = [];
  const bindings: LocatedRecord[] = [];
  const evidenceNames = new Map<string, string>();
  const revocations: RevocationPlan[] = [];
  const revokedIds = new Set<string>();
  const revokedBy = new Map<string, { to: string; at: string }>();
  /** Revision refs of every version of an id this bundle carries (new or already stored). */
  const refsOf = new Map<string, { ref: string; o: StixObject }[]>();

  /**
   * A version too large for evidence content becomes a source document of its own, in the
   * compartment its lineage would have (sources are immutable, so the id names the version).
   */
  const keepAsSource = (id: string, v: StixObject, cls: Classification) => {
    const sha = sha256(v.content);
    const version = versionOf(v.json) ?? `content:${sha.slice(0, 16)}`;
    const sourceId = sourceNameOf(id, version);
    const at = `objects[${v.index}] (${id})`;
    const held = options.sourceSha256?.(options.caseName(sourceId, { tenant: options.tenant, classification: cls }));
    if (held !== undefined && held !== sha) {
      refuse(at, 'modified', `the case already holds version ${version} of ${id} (source document ${sourceId}) with other content; a STIX version never changes, a change is a new modified`, ['objects', v.index, 'modified']);
    }
    report.classifications[cls] = (report.classifications[cls] ?? 0) + 1;
    report.keptAsSource.count++;
    if (!report.keptAsSource.ids.includes(id) && report.keptAsSource.ids.length < MAX_IDS_LISTED) report.keptAsSource.ids.push(id);
    if (report.keptAsSource.versions.length < MAX_IDS_LISTED) report.keptAsSource.versions.push({ id, version, sourceId, characters: v.content.length });
    sources.push({
      at,
      record: BundleRecord.parse({
        type: 'source', sourceId, title: clip(`${titleOf(v, labelOfId)} (STIX ${v.type}, ${version})`, 500), content: v.content,
        mediaType: `application/stix+json;version=${v.specVersion}`, tenant: options.tenant, classification: cls,
      }),
    });
  };

  for (const [id, versionsOfId] of versions) {
    const inCase = existing.get(id);
    for (const v of versionsOfId) if (keptAsSource(v)) keepAsSource(id, v, lineageClass.get(id)!);
    const list = versionsOfId.filter((v) => !keptAsSource(v));
    const newestOfId = versionsOfId.at(-1)!;
    if (list.length === 0) {
      // Nothing of this id is evidence: it is revoked when its newest version says so, or the case's lineage is.
      if (newestOfId.json.revoked === true || inCase?.state === 'REVOKED' || inCase?.state === 'SUPERSEDED') revokedIds.add(id);
      continue;
    }
    const name = inCase?.evidenceId ?? nameOf(id);
    evidenceNames.set(id, name);
    const stored = new Map(inCase?.revisions.map((r) => [r.sha256, r.revision]) ?? []);
    const latestInCase = inCase?.revisions.at(-1)?.sourceVersion ?? null;
    let next = (inCase?.revisions.at(-1)?.revision ?? 0) + 1;
    let newestHere: { v: StixObject; revision: number } | null = null;
    const refs: { ref: string; o: StixObject }[] = [];
    for (const v of list) {
      const sha = sha256(v.content);
      const version = versionOf(v.json);
      let revision = stored.get(sha);
      if (revision === undefined) {
        if (latestInCase !== null && version !== null && isTimestamp(latestInCase) && versionSortKey(version) <= versionSortKey(latestInCase)) {
          if (versionSortKey(version) === versionSortKey(latestInCase)) {
            refuse(`objects[${v.index}] (${id})`, 'modified', `the case already holds version ${latestInCase} of ${id} with other content; a STIX version never changes, a change is a new modified`, ['objects', v.index, 'modified']);
          }
          report.olderThanCase.push({ id, modified: version, latestInCase });
          continue;
        }
        revision = next++;
        newestHere = { v, revision };
        report.versionsStored++;
      } else {
        report.versionsUnchanged++;
      }
      const cls = lineageClass.get(id)!;
      report.classifications[cls] = (report.classifications[cls] ?? 0) + 1;
      evidence.push({
        at: `objects[${v.index}] (${id})`,
        record: BundleRecord.parse({
          type: 'evidence', evidenceId: name, revision, title: titleOf(list[0]!, labelOfId), kind: kindOf(v.type), content: v.content,
          mediaType: `application/stix+json;version=${v.specVersion}`, context: contextOf(v, cls, doc.bundleId, options.tenant, identity, sha),
          ...(revision > 1 ? { reason: `STIX version ${version ?? `of ${sha.slice(0, 12)}`} of ${id}` } : {}),
        }),
      });
      refs.push({ ref: `${name}@${revision}`, o: v });
    }
    refsOf.set(id, refs);
    const last = list.at(-1)!;
    // The newest version in the case after this import decides revocation and deprecation: one
    // stored now, or the bundle's newest when the case already held it as its latest revision.
    const current = newestHere?.v ?? (inCase?.revisions.at(-1)?.sha256 === sha256(last.content) ? last : null);
    // A newer version kept as a source document speaks for the object in references to it.
    const revokedNow = newestOfId !== last ? newestOfId.json.revoked === true : current ? current.json.revoked === true : inCase?.state === 'REVOKED' || inCase?.state === 'SUPERSEDED';
    if (revokedNow) revokedIds.add(id);
    if (newestHere && newestHere.v.json.revoked === true) revocations.push({ id, evidenceName: name, revision: newestHere.revision });
    if (current?.json.x_mitre_deprecated === true) listId(report.deprecated, id);
    if (keptVerbatimOnly(last.type)) listId((report.keptVerbatimOnly[last.type] ??= { count: 0, ids: [] }), id);
    if (last.type === 'relationship' && last.json.relationship_type === 'revoked-by' && last.json.revoked !== true) {
      const { source_ref: from, target_ref: to } = last.json;
      const at = versionOf(last.json) ?? '';
      if (typeof from === 'string' && typeof to === 'string' && (revokedBy.get(from)?.at ?? '') <= at) revokedBy.set(from, { to, at });
    }
  }
  const isRevoked = (id: string) => revokedIds.has(id) || (!versions.has(id) && ['REVOKED', 'SUPERSEDED'].includes(options.lineage(id)?.state ?? ''));

  // Claims and bindings. A claim the case already has is bound to, never restated.
  const claimNames = new Map<string, string>();
  const bound = new Set<string>();
  const claimFor = (kind: keyof typeof CLAIM_PREFIX, about: string, statement: () => string, classification: () => Classification, at: string): string => {
    const name = nameOf(about, CLAIM_PREFIX[kind]);
    const known = claimNames.get(name);
    if (known) return known;
    const inCase = options.claim(name);
    if (inCase) {
      claimNames.set(name, inCase);
      return inCase;
    }
    claims.push({ at, record: BundleRecord.parse({ type: 'claim', claimId: name, statement: statement(), tenant: options.tenant, classification: classification() }) });
    report.claims[kind === 'relationship' ? 'relationships' : kind === 'sighted' ? 'sightings' : 'about']++;
    claimNames.set(name, name);
    return name;
  };
  const bind = (claimId: string, ref: string, relation: Relation, role: BindingRole, rationale: string, at: string) => {
    const key = `${claimId}|${ref}`;
    if (bound.has(key)) return;
    bound.add(key);
    bindings.push({ at, record: BundleRecord.parse({ type: 'binding', claimId, revision: ref, relation, role, rationale: rationale.slice(0, 4000) }) });
  };
  const listed = new Set<string>();
  const notMapped = (id: string, reason: string) => {
    if (listed.has(`${id}|${reason}`)) return;
    listed.add(`${id}|${reason}`);
    report.notMapped.push({ id, reason });
  };
  const relationshipClaim = (r: StixJson, at: string): string | null => {
    const [src, tgt] = [r.source_ref, r.target_ref];
    if (typeof src !== 'string' || typeof tgt !== 'string') return null;
    const statement = () => `${labelOfId(src)} ${String(r.relationship_type)} ${labelOfId(tgt)}`;
    return claimFor('relationship', r.id as string, statement, () => [classOfId(r.id as string), classOfId(src), classOfId(tgt)].reduce(higher, options.classification), at);
  };
  // The claim "X was sighted" is as classified as X and every sighting of X in this bundle.
  const sightingsOf = new Map<string, string[]>();
  for (const o of doc.objects) if (o.type === 'sighting' && typeof o.json.sighting_of_ref === 'string') sightingsOf.set(o.json.sighting_of_ref, [...(sightingsOf.get(o.json.sighting_of_ref) ?? []), o.id]);
  const sightedClaim = (of: string, at: string) =>
    claimFor('sighted', of, () => `${labelOfId(of)} was sighted`, () => [of, ...(sightingsOf.get(of) ?? [])].map(classOfId).reduce(higher, options.classification), at);
  // What an opinion is about: a relationship's claim, a sighting's, else the claim that the object is accurate.
  const claimAbout = (target: string, at: string): string => {
    const t = newest(target);
    const relationship = t ? (t.type === 'relationship' ? relationshipClaim(t.json, at) : null) : target.startsWith('relationship--') ? (options.claim(nameOf(target, CLAIM_PREFIX.relationship)) ?? null) : null;
    if (relationship) return relationship;
    if (t?.type === 'sighting' && typeof t.json.sighting_of_ref === 'string') return sightedClaim(t.json.sighting_of_ref, at);
    return claimFor('about', target, () => `${labelOfId(target)} (${target.slice(0, target.indexOf('--'))}) is accurate as published`, () => higher(classOfId(target), options.classification), at);
  };

  for (const [id, refs] of refsOf) {
    for (const { ref, o } of refs) {
      const at = `objects[${o.index}] (${id})`;
      const j = o.json;
      if (o.type === 'relationship') {
        const claim = relationshipClaim(j, at);
        if (!claim) {
          notMapped(id, 'relationship without source_ref or target_ref: kept as evidence, no claim');
          continue;
        }
        bind(claim, ref, 'FULL_SUPPORT', 'SUPPORTING', `STIX relationship ${id} (${String(versionOf(j))})`, at);
        const ends = [j.source_ref as string, j.target_ref as string].filter(isRevoked);
        if (ends.length > 0 && j.relationship_type !== 'revoked-by' && !listed.has(`${id}|revoked end`)) {
          listed.add(`${id}|revoked end`);
          report.relationshipsToRevoked.push({ id, relationshipType: String(j.relationship_type), revokedEnds: ends });
        }
      } else if (o.type === 'sighting') {
        if (typeof j.sighting_of_ref !== 'string') {
          notMapped(id, 'sighting without sighting_of_ref: kept as evidence, no claim');
          continue;
        }
        const negative = j.x_opencti_negative === true || j.count === 0;
        bind(sightedClaim(j.sighting_of_ref, at), ref, negative ? 'REFUTES' : 'FULL_SUPPORT', 'SUPPORTING', `STIX sighting ${id}${negative ? (j.count === 0 ? ' (count 0: not seen)' : ' (x_opencti_negative)') : ''}`, at);
      } else if (o.type === 'opinion') {
        const about = (j.object_refs as string[] | undefined) ?? [];
        if (about.length === 0) notMapped(id, 'opinion without object_refs: kept as evidence, no binding');
        const { relation, role } = OPINION_RELATION[j.opinion as string]!;
        for (const target of about) {
          const claim = claimAbout(target, at);
          bind(claim, ref, relation, role, `STIX opinion ${String(j.opinion)} (${id})`, at);
        }
      }
    }
  }
  return { records: [...sources, ...evidence, ...claims, ...bindings], report, revocations, revokedBy: new Map([...revokedBy].map(([k, v]) => [k, v.to])), revokedIds, evidenceNames };
}

const isTimestamp = (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s);

function contextOf(
  v: StixObject, classification: Classification, bundleId: string, tenant: string, identity: (ref: string) => { name: string; person: boolean }, sha: string,
): ValidityContext {
  const j = v.json;
  const by = typeof j.created_by_ref === 'string' ? identity(j.created_by_ref) : null;
  const refs = (j.external_references as { url?: unknown; source_name?: unknown; external_id?: unknown }[] | undefined) ?? [];
  const url = refs.find((r) => typeof r.url === 'string' && r.url !== '')?.url as string | undefined;
  const named = refs.find((r) => typeof r.source_name === 'string' && typeof r.external_id === 'string');
  const sourceRef = url ?? (named ? `${String(named.source_name)}:${String(named.external_id)}` : v.id);
  const first = ['valid_from', 'first_observed', 'first_seen', 'created'].map((f) => j[f]).find((t): t is string => typeof t === 'string') ?? null;
  return {
    sourceType: `stix-${v.specVersion}`,
    sourceRef: sourceRef.slice(0, 2048),
    sourceVersion: versionOf(j) ?? `content:${sha.slice(0, 16)}`,
    observedAt: first,
    effectiveFrom: first,
    validUntil: typeof j.valid_until === 'string' ? j.valid_until : null,
    producerType: by?.person ? 'person' : 'tool',
    producer: (by?.name ?? `unattributed (STIX ${bundleId})`).slice(0, 512),
    tenant,
    classification,
    trustTier: 'unverified',
    confidence: typeof j.confidence === 'number' ? j.confidence / 100 : null,
    independenceGroup: `stix:${typeof j.created_by_ref === 'string' ? j.created_by_ref : bundleId}`.slice(0, 512),
    validationMethod: j.x_mitre_deprecated === true ? 'deprecated by its producer (x_mitre_deprecated); not validated on import' : null,
    appliesTo: ['*'],
  };
}
