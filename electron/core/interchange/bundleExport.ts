import { createHash } from 'node:crypto';
import type { BindingRole, Classification, LifecycleState, Relation } from '../../../shared/domain/enums';
import { ClaimPolicySchema } from '../../../shared/domain/claimStatus';
import type { ProvEdgeType } from '../../../shared/ipc/channels/provenance';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleRecord, type BundleHeader } from '../../../shared/interchange/bundle';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { readTransaction } from '../store/caseFile';
import { writeNewFile } from './newFile';
import { toContext, type RevisionRow } from '../store/evidenceRows';

/**
 * Writes what the acting reviewer can see as an evidence bundle, in the order an import needs it:
 * sources, evidence revisions (each lineage in order), claims, current bindings, then PROV. The
 * file is created new (an existing file is never overwritten) and removed again if writing fails.
 * Everything is read in one transaction, so the bundle is one consistent state of the case.
 */
export function exportBundle(ctx: ServiceContext, path: string, format: 'ndjson' | 'json'): { path: string; records: number; bytes: number; sha256: string } {
  const hash = createHash('sha256');
  let bytes = 0;
  let records = 0;
  writeNewFile(path, 'bundle:export', (put) => {
    const write = (text: string) => {
      const buf = Buffer.from(text, 'utf8');
      hash.update(buf);
      bytes += buf.length;
      put(buf);
    };
    const header: BundleHeader = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, producer: `evidence-review-workbench (${ctx.actor.actorId})`, createdAt: ctx.now() };
    if (format === 'ndjson') write(`${JSON.stringify(header)}\n`);
    else write(`${JSON.stringify(header).slice(0, -1)},"records":[\n`);
    readTransaction(ctx.db, () => {
      for (const record of bundleRecords(ctx)) {
        // Every record written is one the import will accept: the format's own check, on the way out.
        const checked = BundleRecord.parse(record);
        write(format === 'ndjson' ? `${JSON.stringify(checked)}\n` : `${records > 0 ? ',\n' : ''}${JSON.stringify(checked)}`);
        records++;
      }
    });
    if (format === 'json') write('\n]}\n');
  });
  return { path, records, bytes, sha256: hash.digest('hex') };
}

function* bundleRecords(ctx: ServiceContext): Generator<BundleRecord> {
  const db = ctx.db;
  const srcAcl = aclFilter(ctx.actor, 's');
  for (const s of db
    .prepare(`SELECT source_id, title, content, media_type, tenant, classification FROM source_document s WHERE ${srcAcl.sql} ORDER BY source_id`)
    .iterate(...srcAcl.params) as Iterable<{ source_id: string; title: string; content: string; media_type: string; tenant: string; classification: Classification }>) {
    yield { type: 'source', sourceId: s.source_id, title: s.title, content: s.content, mediaType: s.media_type, tenant: s.tenant, classification: s.classification };
  }

  const revAcl = aclFilter(ctx.actor, 'r');
  const reasons = new Map(
    (db.prepare(`SELECT json_extract(body, '$.revisionId') AS id, json_extract(body, '$.reason') AS reason FROM audit_receipt WHERE action = 'evidence:revise'`).all() as { id: string; reason: string }[]).map(
      (r) => [r.id, r.reason],
    ),
  );
  const revisions = db.prepare(
    `SELECT r.*, l.title, sp.source_id AS span_source, sp.span_start, sp.span_end, sp.quote
       FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) LEFT JOIN evidence_span sp ON sp.revision_id = r.revision_id
      WHERE ${revAcl.sql} ORDER BY r.evidence_id, r.revision`,
  );
  for (const r of revisions.iterate(...revAcl.params) as Iterable<RevisionRow & { span_source: string | null; span_start: number; span_end: number; quote: string }>) {
    const reason = r.revision > 1 ? reasons.get(r.revision_id) : undefined;
    yield {
      type: 'evidence',
      evidenceId: r.evidence_id,
      revision: r.revision,
      title: r.title,
      kind: r.kind,
      content: r.content,
      mediaType: r.media_type,
      contentSha256: r.content_sha256,
      context: toContext(r),
      lifecycle: r.state as LifecycleState,
      ...(reason ? { reason } : {}),
      ...(r.span_source ? { span: { sourceId: r.span_source, start: r.span_start, end: r.span_end, quote: r.quote } } : {}),
    };
  }

  const claimAcl = aclFilter(ctx.actor, 'c');
  for (const c of db
    .prepare(`SELECT claim_id, statement, scope, policy, tenant, classification FROM claim c WHERE ${claimAcl.sql} ORDER BY claim_id`)
    .iterate(...claimAcl.params) as Iterable<{ claim_id: string; statement: string; scope: string; policy: string; tenant: string; classification: Classification }>) {
    yield { type: 'claim', claimId: c.claim_id, statement: c.statement, scope: JSON.parse(c.scope) as string[], policy: ClaimPolicySchema.parse(JSON.parse(c.policy)), tenant: c.tenant, classification: c.classification };
  }

  for (const b of db
    .prepare(
      `SELECT b.claim_id, b.revision_id, b.relation, b.role, b.rationale
         FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
         JOIN evidence_revision r ON r.revision_id = b.revision_id
        WHERE ${claimAcl.sql} AND ${revAcl.sql} ORDER BY b.binding_id`,
    )
    .iterate(...claimAcl.params, ...revAcl.params) as Iterable<{ claim_id: string; revision_id: string; relation: Relation; role: BindingRole; rationale: string }>) {
    yield { type: 'binding', claimId: b.claim_id, revision: b.revision_id, relation: b.relation, role: b.role, rationale: b.rationale };
  }

  // Declared nodes per compartment, then every edge whose two ends are visible, in the compartment of its subject.
  const nodeAcl = aclFilter(ctx.actor, 'n');
  const nodes = db
    .prepare(`SELECT * FROM prov_node n WHERE ${nodeAcl.sql} AND n.subtype NOT IN ('revision', 'source') ORDER BY n.tenant, n.classification, n.node_id`)
    .all(...nodeAcl.params) as ProvNodeRow[];
  const subjectAcl = aclFilter(ctx.actor, 'sn');
  const objectAcl = aclFilter(ctx.actor, 'o');
  const edges = db
    .prepare(
      `SELECT e.type, e.subject, e.object, sn.tenant, sn.classification FROM prov_edge e
         JOIN prov_node sn ON sn.node_id = e.subject JOIN prov_node o ON o.node_id = e.object
        WHERE ${subjectAcl.sql} AND ${objectAcl.sql} ORDER BY e.edge_id`,
    )
    .all(...subjectAcl.params, ...objectAcl.params) as { type: ProvEdgeType; subject: string; object: string; tenant: string; classification: Classification }[];
  const compartments = new Map<string, { tenant: string; classification: Classification; nodes: ProvNodeRow[]; edges: { type: ProvEdgeType; from: string; to: string }[] }>();
  const slot = (tenant: string, classification: Classification) => {
    const key = JSON.stringify([tenant, classification]);
    if (!compartments.has(key)) compartments.set(key, { tenant, classification, nodes: [], edges: [] });
    return compartments.get(key)!;
  };
  for (const n of nodes) slot(n.tenant, n.classification).nodes.push(n);
  for (const e of edges) slot(e.tenant, e.classification).edges.push({ type: e.type, from: e.subject, to: e.object });
  // Every node before any edge, so an edge never names a node declared further on. A record holds
  // at most 500 nodes or 2,000 edges; larger graphs continue in the next one.
  for (const c of compartments.values()) {
    for (let i = 0; i < c.nodes.length; i += 500) yield { type: 'prov', tenant: c.tenant, classification: c.classification, nodes: c.nodes.slice(i, i + 500).map(toNodeInput), edges: [] };
  }
  for (const c of compartments.values()) {
    for (let j = 0; j < c.edges.length; j += 2000) yield { type: 'prov', tenant: c.tenant, classification: c.classification, nodes: [], edges: c.edges.slice(j, j + 2000) };
  }
}

interface ProvNodeRow {
  node_id: string;
  kind: 'entity' | 'activity' | 'agent';
  subtype: string;
  source_ref: string | null;
  label: string;
  started_at: string | null;
  ended_at: string | null;
  tenant: string;
  classification: Classification;
}

function toNodeInput(n: ProvNodeRow): Extract<BundleRecord, { type: 'prov' }>['nodes'][number] {
  if (n.kind === 'entity') return { kind: 'entity', id: n.node_id, label: n.label, ...(n.source_ref ? { sourceRef: n.source_ref } : {}) };
  if (n.kind === 'activity') return { kind: 'activity', id: n.node_id, activityType: n.subtype, label: n.label, ...(n.started_at ? { startedAt: n.started_at } : {}), ...(n.ended_at ? { endedAt: n.ended_at } : {}) };
  return { kind: 'agent', id: n.node_id, agentType: n.subtype as 'person' | 'software' | 'organization', label: n.label };
}
