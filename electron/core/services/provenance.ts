import type { Statement } from 'better-sqlite3';
import { EVIDENCE_STRENGTH, type Classification, type EvidenceKind } from '../../../shared/domain/enums';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import type {
  OriginalSource,
  ProvEdgeType,
  ProvEdgeView,
  ProvNodeKind,
  ProvNodeView,
  TraceResult,
} from '../../../shared/ipc/channels/provenance';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { writeTransaction, type CaseDb } from '../store/caseFile';
import { aclFilter, canSee } from '../store/acl';
import { loadVisibleClaim } from '../store/claimRows';
import { loadVisibleRevision, type RevisionRow } from '../store/evidenceRows';
import { loadVisibleSource } from './sources';

/**
 * W3C PROV (DESIGN §3.2): recording nodes and edges, and tracing evidence back to its original
 * sources. Every read goes through the actor's ACL: a hidden node does not exist for the trace, so
 * nothing about it (not even that a path runs through it) reaches the caller.
 */

/** Endpoint kinds per edge type, in PROV argument order (subject, object). */
export const EDGE_ENDPOINTS: Readonly<Record<ProvEdgeType, readonly [ProvNodeKind, ProvNodeKind]>> = {
  used: ['activity', 'entity'],
  wasGeneratedBy: ['entity', 'activity'],
  wasDerivedFrom: ['entity', 'entity'],
  wasAssociatedWith: ['activity', 'agent'],
  wasAttributedTo: ['entity', 'agent'],
};

/** Bounds on one walk: a copy chain deeper than this, or a graph larger, is cut and reported as truncated. */
export const MAX_TRACE_DEPTH = 32;
export const MAX_TRACE_NODES = 2000;

/** What a provenance read needs: the case and whose clearance it reads with (no clock, no keys). */
type Reader = Pick<ServiceContext, 'db' | 'actor'>;

export const revisionNodeId = (revisionId: string): string => `rev:${revisionId}`;
export const sourceNodeId = (sourceId: string): string => `src:${sourceId}`;

interface NodeRow {
  node_id: string;
  kind: ProvNodeKind;
  subtype: string;
  label: string;
  revision_id: string | null;
  source_id: string | null;
  source_ref: string | null;
  rev_source_ref: string | null;
  rev_kind: EvidenceKind | null;
}

// The trace runs once per bound revision when a claim's status is derived, so its statements are
// compiled once per connection rather than on every call.
const statementCache = new WeakMap<CaseDb, Map<string, Statement>>();
function stmt(db: CaseDb, sql: string): Statement {
  let byText = statementCache.get(db);
  if (!byText) statementCache.set(db, (byText = new Map()));
  let s = byText.get(sql);
  if (!s) byText.set(sql, (s = db.prepare(sql)));
  return s;
}

function visibleNode(ctx: Reader, nodeId: string): NodeRow | undefined {
  const acl = aclFilter(ctx.actor, 'n');
  return stmt(
    ctx.db,
    `SELECT n.node_id, n.kind, n.subtype, n.label, n.revision_id, n.source_id, n.source_ref,
       r.source_ref AS rev_source_ref, r.kind AS rev_kind
     FROM prov_node n LEFT JOIN evidence_revision r ON r.revision_id = n.revision_id
     WHERE n.node_id = ? AND ${acl.sql}`,
  ).get(nodeId, ...acl.params) as NodeRow | undefined;
}

function outEdges(db: CaseDb, subject: string): { type: ProvEdgeType; subject: string; object: string }[] {
  return stmt(db, 'SELECT type, subject, object FROM prov_edge WHERE subject = ? ORDER BY edge_id').all(subject) as {
    type: ProvEdgeType;
    subject: string;
    object: string;
  }[];
}

const toView = (n: NodeRow): ProvNodeView => ({
  id: n.node_id,
  kind: n.kind,
  subtype: n.subtype,
  label: n.label,
  revisionId: n.revision_id,
  sourceId: n.source_id,
});

/** What independence counting collapses on; a leaf revision keys like an untraced one (source:<ref>). */
function sourceKeyOf(n: NodeRow): string {
  if (n.subtype === 'revision') return `source:${n.rev_source_ref}`;
  if (n.subtype === 'source') return `document:${n.source_id}`;
  return n.source_ref !== null ? `source:${n.source_ref}` : `entity:${n.node_id}`;
}

/** A producer is not a source: derived evidence (an agent summary) never ends a trace as an original source. */
const canBeOriginal = (n: NodeRow): boolean =>
  n.kind === 'entity' && !(n.rev_kind !== null && EVIDENCE_STRENGTH[n.rev_kind] === 'derived');

function rootNode(row: RevisionRow): NodeRow {
  return {
    node_id: revisionNodeId(row.revision_id),
    kind: 'entity',
    subtype: 'revision',
    label: row.title,
    revision_id: row.revision_id,
    source_id: null,
    source_ref: null,
    rev_source_ref: row.source_ref,
    rev_kind: row.kind,
  };
}

/**
 * Breadth-first from the roots through wasDerivedFrom and wasGeneratedBy→used to the entities with
 * no further (visible) derivation. Agents reached through wasAssociatedWith / wasAttributedTo are
 * returned for display but are never sources. Cycle-safe (each node is expanded once) and bounded.
 */
export function traceFrom(ctx: Reader, roots: NodeRow[]): TraceResult {
  const nodes = new Map<string, NodeRow>();
  const edges = new Map<string, ProvEdgeView>();
  const originals = new Map<string, OriginalSource>();
  let truncated = false;
  const queue: { node: NodeRow; depth: number }[] = [];
  const expanded = new Set<string>();
  for (const root of roots) {
    nodes.set(root.node_id, root);
    queue.push({ node: root, depth: 0 });
  }
  const reach = (edge: { type: ProvEdgeType; subject: string; object: string }): NodeRow | undefined => {
    const target = nodes.get(edge.object) ?? visibleNode(ctx, edge.object);
    if (!target) return undefined;
    nodes.set(target.node_id, target);
    edges.set(`${edge.subject}\u0000${edge.type}\u0000${edge.object}`, { type: edge.type, from: edge.subject, to: edge.object });
    return target;
  };
  while (queue.length > 0) {
    const { node, depth } = queue.shift()!;
    if (expanded.has(node.node_id)) continue;
    expanded.add(node.node_id);
    const parents: NodeRow[] = [];
    for (const edge of outEdges(ctx.db, node.node_id)) {
      if (edge.type !== 'wasDerivedFrom' && edge.type !== 'wasGeneratedBy' && edge.type !== 'wasAttributedTo') continue;
      const target = reach(edge);
      if (!target) continue;
      if (edge.type === 'wasDerivedFrom') parents.push(target);
      if (edge.type !== 'wasGeneratedBy') continue;
      for (const inner of outEdges(ctx.db, target.node_id)) {
        if (inner.type !== 'used' && inner.type !== 'wasAssociatedWith') continue;
        const used = reach(inner);
        if (used && inner.type === 'used') parents.push(used);
      }
    }
    if (parents.length === 0) {
      if (canBeOriginal(node)) {
        originals.set(node.node_id, {
          nodeId: node.node_id,
          sourceKey: sourceKeyOf(node),
          label: node.label,
          revisionId: node.revision_id,
          sourceId: node.source_id,
        });
      }
      continue;
    }
    if (depth + 1 > MAX_TRACE_DEPTH || nodes.size > MAX_TRACE_NODES) {
      truncated = true;
      continue;
    }
    for (const parent of parents) if (!expanded.has(parent.node_id)) queue.push({ node: parent, depth: depth + 1 });
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    roots: roots.map((r) => r.node_id),
    nodes: [...nodes.values()].map(toView).sort(byId),
    edges: [...edges.values()],
    originalSources: [...originals.values()].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0)),
    truncated,
  };
}

/** Trace of one revision the actor can see (the caller has loaded it through the ACL). */
export function traceRevisionRow(ctx: ServiceContext, row: RevisionRow): TraceResult {
  return traceFrom(ctx, [visibleNode(ctx, revisionNodeId(row.revision_id)) ?? rootNode(row)]);
}

export function traceProvenance(ctx: ServiceContext, req: ParsedRequestOf<'provenance:trace'>): TraceResult {
  if ('revisionId' in req) return traceRevisionRow(ctx, loadVisibleRevision(ctx.db, ctx.actor, req.revisionId, 'provenance:trace'));
  const claim = loadVisibleClaim(ctx, req.claimId, 'provenance:trace');
  const acl = aclFilter(ctx.actor, 'r');
  const rows = ctx.db
    .prepare(
      `SELECT DISTINCT r.*, l.title FROM claim_binding b
       JOIN evidence_revision r ON r.revision_id = b.revision_id JOIN evidence_lineage l ON l.evidence_id = r.evidence_id
       WHERE b.claim_id = ? AND b.generation = ? AND ${acl.sql} ORDER BY r.revision_id`,
    )
    .all(claim.claim_id, claim.generation, ...acl.params) as RevisionRow[];
  return traceFrom(ctx, rows.map((row) => visibleNode(ctx, revisionNodeId(row.revision_id)) ?? rootNode(row)));
}

/**
 * Original sources of one revision for independence counting (DESIGN §3.2: ten agents copying one
 * web page is one source). Untraced evidence is its own source, keyed by source_ref, except derived
 * evidence, which without provenance traces to nothing and so does not count.
 *
 * The walk sees only what the actor may see. Collapsing two visible copies through a hidden common
 * source would change a claim's status because of evidence outside the clearance (and hint at it),
 * so for that actor the hidden source does not exist, as everywhere else (DESIGN §3.8).
 */
export function originalSourceKeys(ctx: Reader, revision: Pick<RevisionRow, 'revision_id' | 'kind' | 'source_ref'>): string[] {
  const hasEdges = stmt(ctx.db, 'SELECT 1 FROM prov_edge WHERE subject = ? LIMIT 1').get(revisionNodeId(revision.revision_id));
  if (!hasEdges) return EVIDENCE_STRENGTH[revision.kind] === 'derived' ? [] : [`source:${revision.source_ref}`];
  const root = visibleNode(ctx, revisionNodeId(revision.revision_id));
  if (!root) return [`source:${revision.source_ref}`];
  return [...new Set(traceFrom(ctx, [root]).originalSources.map((s) => s.sourceKey))].sort();
}

// ---- recording ----------------------------------------------------------------------------------

interface Compartment {
  tenant: string;
  classification: Classification;
}

function insertNode(
  ctx: ServiceContext,
  n: { id: string; kind: ProvNodeKind; subtype: string; label: string; revisionId?: string; sourceId?: string; sourceRef?: string; startedAt?: string; endedAt?: string } & Compartment,
): void {
  ctx.db
    .prepare(
      `INSERT INTO prov_node (node_id, kind, subtype, revision_id, source_id, source_ref, label, started_at, ended_at,
         tenant, classification, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(n.id, n.kind, n.subtype, n.revisionId ?? null, n.sourceId ?? null, n.sourceRef ?? null, n.label, n.startedAt ?? null, n.endedAt ?? null,
      n.tenant, n.classification, ctx.actor.actorId, ctx.now());
}

/** The entity for a stored revision, created on first use with the revision's own compartment. */
export function ensureRevisionNode(ctx: ServiceContext, row: RevisionRow, added: string[]): string {
  const id = revisionNodeId(row.revision_id);
  if (!ctx.db.prepare('SELECT 1 FROM prov_node WHERE node_id = ?').get(id)) {
    insertNode(ctx, { id, kind: 'entity', subtype: 'revision', label: row.title, revisionId: row.revision_id, tenant: row.tenant, classification: row.classification });
    added.push(id);
  }
  return id;
}

export function ensureSourceNode(ctx: ServiceContext, source: { source_id: string; title: string } & Compartment, added: string[]): string {
  const id = sourceNodeId(source.source_id);
  if (!ctx.db.prepare('SELECT 1 FROM prov_node WHERE node_id = ?').get(id)) {
    insertNode(ctx, { id, kind: 'entity', subtype: 'source', label: source.title, sourceId: source.source_id, tenant: source.tenant, classification: source.classification });
    added.push(id);
  }
  return id;
}

export function insertEdge(ctx: ServiceContext, type: ProvEdgeType, subject: string, object: string): boolean {
  return ctx.db
    .prepare('INSERT OR IGNORE INTO prov_edge (type, subject, object, created_by, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(type, subject, object, ctx.actor.actorId, ctx.now()).changes === 1;
}

export function recordProvenance(ctx: ServiceContext, req: ParsedRequestOf<'prov:record'>): { nodesAdded: string[]; edgesAdded: number } {
  const ch = 'prov:record';
  if (req.nodes.length === 0 && req.edges.length === 0) throw invalid(`${ch}: nothing to record; send nodes and/or edges`);
  if (!canSee(ctx.actor, req)) {
    throw forbidden(`${ch}: your clearance does not cover tenant ${req.tenant} at ${req.classification}; record in a compartment you can see`);
  }
  return writeTransaction(ctx.db, () => {
    const added: string[] = [];
    const seen = new Set<string>();
    for (const [i, n] of req.nodes.entries()) {
      if (seen.has(n.id)) throw invalid(`${ch}: node ${n.id} is declared twice`, [{ path: ['nodes', i, 'id'], message: 'duplicate id' }]);
      seen.add(n.id);
      if (ctx.db.prepare('SELECT 1 FROM prov_node WHERE node_id = ?').get(n.id)) {
        throw conflict(`${ch}: provenance node ${n.id} already exists; refer to it in edges instead of declaring it again`);
      }
      const subtype = n.kind === 'entity' ? 'external' : n.kind === 'activity' ? n.activityType : n.agentType;
      insertNode(ctx, {
        id: n.id, kind: n.kind, subtype, label: n.label, tenant: req.tenant, classification: req.classification,
        ...(n.kind === 'entity' && n.sourceRef ? { sourceRef: n.sourceRef } : {}),
        ...(n.kind === 'activity' ? { startedAt: n.startedAt, endedAt: n.endedAt } : {}),
      });
      added.push(n.id);
    }
    const resolve = (endpoint: string): { id: string; kind: ProvNodeKind } => {
      if (endpoint.startsWith('rev:')) {
        return { id: ensureRevisionNode(ctx, loadVisibleRevision(ctx.db, ctx.actor, endpoint.slice(4), ch), added), kind: 'entity' };
      }
      if (endpoint.startsWith('src:')) return { id: ensureSourceNode(ctx, loadVisibleSource(ctx, endpoint.slice(4), ch), added), kind: 'entity' };
      const node = visibleNode(ctx, endpoint);
      if (!node) throw notFound(`${ch}: no provenance node ${endpoint} is visible to you; declare it in nodes, or use rev:<revisionId> / src:<sourceId>`);
      return { id: node.node_id, kind: node.kind };
    };
    const edgeLog: ProvEdgeView[] = [];
    for (const [i, e] of req.edges.entries()) {
      const from = resolve(e.from);
      const to = resolve(e.to);
      const [subjectKind, objectKind] = EDGE_ENDPOINTS[e.type];
      if (from.kind !== subjectKind || to.kind !== objectKind) {
        throw invalid(`${ch}: ${e.type} goes from an ${subjectKind} to an ${objectKind}, but ${e.from} is an ${from.kind} and ${e.to} an ${to.kind}`, [
          { path: ['edges', i], message: `${e.type} needs ${subjectKind} → ${objectKind}` },
        ]);
      }
      if (from.id === to.id) throw invalid(`${ch}: ${e.type} from ${e.from} to itself`, [{ path: ['edges', i], message: 'self-loop' }]);
      if (!insertEdge(ctx, e.type, from.id, to.id)) throw conflict(`${ch}: ${e.type}(${e.from}, ${e.to}) is already recorded; leave it out`);
      edgeLog.push({ type: e.type, from: from.id, to: to.id });
    }
    appendReceipt(ctx, {
      action: 'prov:record',
      targets: [...new Set([...added, ...edgeLog.flatMap((e) => [e.from, e.to])])].sort().map((id) => `prov:${id}`),
      body: { tenant: req.tenant, classification: req.classification, nodes: req.nodes, edges: edgeLog, nodesAdded: added },
      post: { nodesAdded: added, edges: edgeLog },
    });
    return { nodesAdded: added, edgesAdded: edgeLog.length };
  });
}
