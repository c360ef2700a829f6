import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Classification } from '../../../shared/domain/enums';
import { Id } from '../../../shared/domain/schemas';
import type { ProvEdgeType, ProvNodeInput } from '../../../shared/ipc/channels/provenance';
import type { ProvImportReport } from '../../../shared/ipc/channels/interchange';
import type { ServiceContext } from '../context';
import { conflict, invalid, WorkbenchError } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { transitionEvidence } from '../services/evidenceTransitions';
import { recordProvenance } from '../services/provenance';
import { aclFilter } from '../store/acl';
import { readTransaction, writeTransaction } from '../store/caseFile';
import { channelRequest } from './channelRequest';
import { writeNewFile } from './newFile';

/**
 * W3C PROV-JSON in and out of a case's provenance graph (issue 10.4).
 *
 * Export: stored revisions and sources are entities `erwb:rev/<revisionId>` and `erwb:src/<id>`,
 * declared nodes `erwb:node/<id>`; the five relations the case records map one to one; a
 * correction (revision n+1 of a lineage) is `wasDerivedFrom` with `prov:type` `prov:Revision`, and a
 * revoked revision is `wasInvalidatedBy` an activity `erwb:revocation/<revisionId>` at its time.
 *
 * Import: entities, activities and agents become declared nodes, the five relations become
 * edges (through prov:record, so the same checks and receipts apply), `erwb:rev/…` and
 * `erwb:src/…` name what the case stores. A `prov:Revision` derivation between two stored
 * revisions supersedes the older one, and `wasInvalidatedBy` of a stored revision revokes it, as
 * lifecycle moves of the importing reviewer. What PROV says that the case does not model
 * (influence, communication, delegation, start and end, bundles…) is counted in the report.
 * One transaction: a refused record leaves the case as it was.
 */

const ERWB = (caseId: string) => `urn:erwb:case:${caseId}/`;
const RELATIONS: Record<ProvEdgeType, [subjectKey: string, objectKey: string]> = {
  used: ['prov:activity', 'prov:entity'],
  wasGeneratedBy: ['prov:entity', 'prov:activity'],
  wasDerivedFrom: ['prov:generatedEntity', 'prov:usedEntity'],
  wasAssociatedWith: ['prov:activity', 'prov:agent'],
  wasAttributedTo: ['prov:entity', 'prov:agent'],
};
const ENDPOINT_KIND: Record<string, 'entity' | 'activity' | 'agent'> = {
  'prov:activity': 'activity',
  'prov:entity': 'entity',
  'prov:generatedEntity': 'entity',
  'prov:usedEntity': 'entity',
  'prov:agent': 'agent',
};
const NODE_SECTIONS = { entity: 'entity', activity: 'activity', agent: 'agent' } as const;
const KNOWN = new Set(['prefix', ...Object.keys(NODE_SECTIONS), ...Object.keys(RELATIONS), 'wasInvalidatedBy']);

type Attrs = Record<string, unknown>;

/** A PROV-JSON literal as text: "x", 3, {"$": "x", "type": …}, or the first of a list. */
function literal(value: unknown): string | null {
  if (Array.isArray(value)) return value.length > 0 ? literal(value[0]) : null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && '$' in value) return literal((value as { $: unknown }).$);
  return null;
}
const types = (attrs: Attrs): string[] => {
  const t = attrs['prov:type'];
  return (Array.isArray(t) ? t : t === undefined ? [] : [t]).map(literal).filter((x): x is string => x !== null);
};

/** A PROV identifier as a node id of the case: kept when it is a valid id, else a stable digest of it. */
export function nodeIdOf(provId: string): string {
  const local = provId.startsWith('_:') ? `blank:${provId.slice(2)}` : provId;
  if (Id.safeParse(local).success && !/^(rev|src):/.test(local)) return local;
  return `prov-${createHash('sha256').update(provId, 'utf8').digest('hex').slice(0, 16)}`;
}

export function exportProvJson(ctx: ServiceContext, path: string): { path: string; bytes: number; sha256: string; entities: number; relations: number } {
  const doc = readTransaction(ctx.db, () => provDocument(ctx));
  const buf = Buffer.from(`${JSON.stringify(doc, null, 1)}\n`, 'utf8');
  writeNewFile(path, 'prov:export', (put) => put(buf));
  const relations = Object.keys(RELATIONS).concat('wasInvalidatedBy').reduce((n, k) => n + Object.keys((doc[k] as object | undefined) ?? {}).length, 0);
  return { path, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex'), entities: Object.keys(doc.entity!).length, relations };
}

function provDocument(ctx: ServiceContext): Record<string, unknown> {
  const { caseId } = readCaseMeta(ctx.db);
  const entity: Record<string, Attrs> = {};
  const activity: Record<string, Attrs> = {};
  const agent: Record<string, Attrs> = {};
  const doc: Record<string, Record<string, unknown>> = { prefix: { erwb: ERWB(caseId) }, entity, activity, agent };
  const sections = { entity, activity, agent };
  const nodeName = (n: { node_id: string; subtype: string; revision_id: string | null; source_id: string | null }) =>
    n.subtype === 'revision' ? `erwb:rev/${n.revision_id}` : n.subtype === 'source' ? `erwb:src/${n.source_id}` : `erwb:node/${n.node_id}`;
  const relation = (section: string, key: string, attrs: Attrs) => {
    (doc[section] ??= {})[key] = attrs;
  };
  const revAcl = aclFilter(ctx.actor, 'r');
  const revisions = ctx.db
    .prepare(`SELECT r.revision_id, r.evidence_id, r.revision, r.supersedes, r.state, r.content_sha256, r.kind, l.title FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE ${revAcl.sql} ORDER BY r.evidence_id, r.revision`)
    .all(...revAcl.params) as { revision_id: string; supersedes: string | null; state: string; content_sha256: string; kind: string; title: string }[];
  const visibleRevisions = new Set(revisions.map((r) => r.revision_id));
  for (const r of revisions) {
    entity[`erwb:rev/${r.revision_id}`] = { 'prov:label': r.title, 'prov:type': 'erwb:EvidenceRevision', 'erwb:kind': r.kind, 'erwb:state': r.state, 'erwb:contentSha256': r.content_sha256 };
    if (r.supersedes && visibleRevisions.has(r.supersedes)) {
      relation('wasDerivedFrom', `erwb:revision/${r.revision_id}`, { 'prov:generatedEntity': `erwb:rev/${r.revision_id}`, 'prov:usedEntity': `erwb:rev/${r.supersedes}`, 'prov:type': { $: 'prov:Revision', type: 'prov:QUALIFIED_NAME' } });
    }
  }
  const revoked = ctx.db
    .prepare(`SELECT t.revision_id, t.at, t.reason FROM evidence_transition t JOIN evidence_revision r ON r.revision_id = t.revision_id WHERE t.to_state = 'REVOKED' AND ${revAcl.sql} ORDER BY t.transition_id`)
    .all(...revAcl.params) as { revision_id: string; at: string; reason: string }[];
  for (const t of revoked) {
    activity[`erwb:revocation/${t.revision_id}`] = { 'prov:label': `revoked: ${t.reason}`, 'prov:type': 'erwb:Revocation', 'prov:startTime': t.at, 'prov:endTime': t.at };
    relation('wasInvalidatedBy', `erwb:invalidation/${t.revision_id}`, { 'prov:entity': `erwb:rev/${t.revision_id}`, 'prov:activity': `erwb:revocation/${t.revision_id}`, 'prov:time': t.at });
  }
  const nodeAcl = aclFilter(ctx.actor, 'n');
  const nodes = ctx.db.prepare(`SELECT * FROM prov_node n WHERE ${nodeAcl.sql} ORDER BY n.node_id`).all(...nodeAcl.params) as {
    node_id: string; kind: 'entity' | 'activity' | 'agent'; subtype: string; revision_id: string | null; source_id: string | null; source_ref: string | null; label: string; started_at: string | null; ended_at: string | null;
  }[];
  const names = new Map<string, string>();
  for (const n of nodes) {
    const name = nodeName(n);
    names.set(n.node_id, name);
    if (n.subtype === 'revision') continue; // already an entity above
    const attrs: Attrs = { 'prov:label': n.label };
    if (n.kind === 'entity') attrs['prov:type'] = n.subtype === 'source' ? 'erwb:SourceDocument' : 'erwb:ExternalEntity';
    if (n.kind === 'activity') attrs['prov:type'] = n.subtype;
    if (n.kind === 'agent') attrs['prov:type'] = n.subtype === 'person' ? 'prov:Person' : n.subtype === 'software' ? 'prov:SoftwareAgent' : 'prov:Organization';
    if (n.source_ref) attrs['erwb:sourceRef'] = n.source_ref;
    if (n.started_at) attrs['prov:startTime'] = n.started_at;
    if (n.ended_at) attrs['prov:endTime'] = n.ended_at;
    sections[n.kind][name] = attrs;
  }
  const edges = ctx.db.prepare('SELECT edge_id, type, subject, object FROM prov_edge ORDER BY edge_id').all() as { edge_id: number; type: ProvEdgeType; subject: string; object: string }[];
  for (const e of edges) {
    const from = names.get(e.subject);
    const to = names.get(e.object);
    if (!from || !to) continue; // an end outside your clearance
    const [s, o] = RELATIONS[e.type];
    relation(e.type, `erwb:edge/${e.edge_id}`, { [s]: from, [o]: to });
  }
  return doc;
}

/** Reads a PROV-JSON document and applies it to the case (see above). */
export function importProvJson(ctx: ServiceContext, req: { path: string; tenant: string; classification: Classification; maxBytes: number }): ProvImportReport {
  const ch = 'prov:import';
  let st;
  try {
    st = statSync(req.path);
  } catch {
    throw invalid(`${ch}: ${req.path}: no such file`);
  }
  if (!st.isFile()) throw invalid(`${ch}: ${req.path}: expected a regular file`);
  if (st.size > req.maxBytes) throw invalid(`${ch}: ${req.path}: the file has ${st.size.toLocaleString('en')} bytes; the limit is ${req.maxBytes.toLocaleString('en')}`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(req.path, 'utf8'));
  } catch (err) {
    throw invalid(`${ch}: ${req.path} is not JSON (${(err as Error).message})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw invalid(`${ch}: a PROV-JSON document is a JSON object`);
  const d = doc as Record<string, unknown>;
  const erwbPrefix = (d.prefix as Record<string, unknown> | undefined)?.erwb;
  const ours = typeof erwbPrefix === 'string' && erwbPrefix.startsWith('urn:erwb:case:');
  const report: ProvImportReport = { nodesAdded: 0, edgesAdded: 0, unchanged: 0, superseded: [], revoked: [], notApplied: [], skipped: {} };
  const skip = (what: string, n = 1) => (report.skipped[what] = (report.skipped[what] ?? 0) + n);
  for (const key of Object.keys(d)) {
    if (!KNOWN.has(key)) skip(key, typeof d[key] === 'object' && d[key] ? Object.keys(d[key] as object).length : 1);
  }
  const section = (key: string): [string, Attrs][] => {
    const v = d[key];
    if (v === undefined) return [];
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(`${ch}: ${key}: expected an object of PROV records`);
    return Object.entries(v as Record<string, unknown>).map(([k, a]) => [k, a && typeof a === 'object' && !Array.isArray(a) ? (a as Attrs) : {}]);
  };

  // What each PROV name is here: a stored revision or source (our own export), or a node to declare.
  type Ref = { endpoint: string; kind: 'entity' | 'activity' | 'agent'; stored: boolean };
  const declared = new Map<string, ProvNodeInput>();
  const refOf = (name: string, kind: 'entity' | 'activity' | 'agent', attrs: Attrs = {}): Ref => {
    if (ours && name.startsWith('erwb:rev/')) return { endpoint: `rev:${name.slice(9)}`, kind: 'entity', stored: true };
    if (ours && name.startsWith('erwb:src/')) return { endpoint: `src:${name.slice(9)}`, kind: 'entity', stored: true };
    const id = nodeIdOf(ours && name.startsWith('erwb:node/') ? name.slice(10) : name);
    if (!declared.has(id)) declared.set(id, nodeInput(id, name, kind, attrs));
    return { endpoint: id, kind: declared.get(id)!.kind, stored: false };
  };
  for (const [kind, key] of Object.entries(NODE_SECTIONS)) {
    for (const [name, attrs] of section(key)) {
      if (ours && /^erwb:(revocation|rev|src)\//.test(name)) continue; // the case's own records, not nodes to declare
      refOf(name, kind as 'entity' | 'activity' | 'agent', attrs);
    }
  }
  const edges: { type: ProvEdgeType; from: string; to: string }[] = [];
  const revisions: { newer: string; older: string }[] = [];
  for (const type of Object.keys(RELATIONS) as ProvEdgeType[]) {
    const [sKey, oKey] = RELATIONS[type];
    for (const [, attrs] of section(type)) {
      const s = literal(attrs[sKey]);
      const o = literal(attrs[oKey]);
      if (!s || !o) {
        skip(`${type} without ${!s ? sKey : oKey}`);
        continue;
      }
      if (s === o) {
        skip(`${type} of a node to itself`);
        continue;
      }
      const from = refOf(s, ENDPOINT_KIND[sKey]!);
      const to = refOf(o, ENDPOINT_KIND[oKey]!);
      if (type === 'wasDerivedFrom' && types(attrs).includes('prov:Revision') && from.stored && to.stored) {
        revisions.push({ newer: from.endpoint.slice(4), older: to.endpoint.slice(4) });
        continue;
      }
      edges.push({ type, from: from.endpoint, to: to.endpoint });
    }
  }
  const invalidations: string[] = [];
  for (const [, attrs] of section('wasInvalidatedBy')) {
    const e = literal(attrs['prov:entity']);
    if (!e) {
      skip('wasInvalidatedBy without prov:entity');
      continue;
    }
    const ref = refOf(e, 'entity');
    if (ref.stored && ref.endpoint.startsWith('rev:')) invalidations.push(ref.endpoint.slice(4));
    else skip('wasInvalidatedBy of something the case does not store');
  }

  return writeTransaction(ctx.db, () => {
    const nodes = [...declared.values()].filter((n) => {
      const present = ctx.db.prepare('SELECT kind FROM prov_node WHERE node_id = ?').get(n.id) as { kind: string } | undefined;
      if (present && present.kind !== n.kind) throw conflict(`${ch}: ${n.id} is already in the case as an ${present.kind}, not an ${n.kind}`);
      if (present) report.unchanged++;
      return !present;
    });
    // An endpoint is the node id itself (rev:<id> and src:<id> are the stored items' node ids).
    const fresh = edges.filter((e) => {
      const present = ctx.db.prepare('SELECT 1 FROM prov_edge WHERE subject = ? AND type = ? AND object = ?').get(e.from, e.type, e.to);
      if (present) report.unchanged++;
      return !present;
    });
    const seen = new Set<string>();
    const unique = fresh.filter((e) => {
      const k = `${e.type}|${e.from}|${e.to}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    // Every node before any edge (prov:record takes at most 500 nodes or 2,000 edges a call).
    const record = (part: { nodes: ProvNodeInput[]; edges: typeof unique }) => {
      const request = channelRequest('prov:record', { tenant: req.tenant, classification: req.classification, ...part });
      report.edgesAdded += recordProvenance(ctx, request).edgesAdded;
      report.nodesAdded += part.nodes.length;
    };
    for (let i = 0; i < nodes.length; i += 500) record({ nodes: nodes.slice(i, i + 500), edges: [] });
    for (let j = 0; j < unique.length; j += 2000) record({ nodes: [], edges: unique.slice(j, j + 2000) });
    const move = (revisionId: string, to: 'SUPERSEDED' | 'REVOKED', reason: string, supportingRef?: string) => {
      try {
        transitionEvidence(ctx, channelRequest('evidence:transition', { revisionId, to, reason, ...(supportingRef ? { supportingRef } : {}) }));
        (to === 'SUPERSEDED' ? report.superseded : report.revoked).push(revisionId);
      } catch (err) {
        if (!(err instanceof WorkbenchError)) throw err;
        report.notApplied.push({ revisionId, to, reason: err.message });
      }
    };
    for (const r of revisions) {
      const state = ctx.db.prepare('SELECT state FROM evidence_revision WHERE revision_id = ?').pluck().get(r.older) as string | undefined;
      if (state !== 'SUPERSEDED') move(r.older, 'SUPERSEDED', `prov:Revision: revised by ${r.newer} (imported PROV-JSON)`, r.newer);
      else report.unchanged++;
    }
    for (const revisionId of invalidations) {
      const state = ctx.db.prepare('SELECT state FROM evidence_revision WHERE revision_id = ?').pluck().get(revisionId) as string | undefined;
      if (state !== 'REVOKED') move(revisionId, 'REVOKED', 'prov:wasInvalidatedBy (imported PROV-JSON)');
      else report.unchanged++;
    }
    return report;
  });
}

function nodeInput(id: string, provName: string, kind: 'entity' | 'activity' | 'agent', attrs: Attrs): ProvNodeInput {
  const label = (literal(attrs['prov:label']) ?? provName).slice(0, 500).trim() || provName.slice(0, 500);
  const t = types(attrs);
  if (kind === 'activity') {
    const start = literal(attrs['prov:startTime']);
    const end = literal(attrs['prov:endTime']);
    const iso = (x: string | null) => (x && !Number.isNaN(Date.parse(x)) && /[zZ]|[+-]\d\d:\d\d$/.test(x) ? x : undefined);
    const activityType = (t.find((x) => !x.startsWith('prov:')) ?? 'activity').slice(0, 100);
    return { kind, id, activityType, label, ...(iso(start) ? { startedAt: iso(start)! } : {}), ...(iso(end) ? { endedAt: iso(end)! } : {}) };
  }
  if (kind === 'agent') {
    const agentType = t.includes('prov:Person') ? 'person' : t.includes('prov:Organization') ? 'organization' : 'software';
    return { kind, id, agentType, label };
  }
  const sourceRef = literal(attrs['erwb:sourceRef']);
  return { kind, id, label, ...(sourceRef ? { sourceRef: sourceRef.slice(0, 500) } : {}) };
}
