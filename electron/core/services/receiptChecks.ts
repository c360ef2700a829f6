import { timeDiffers, postDiffers, type CaseStateCheck, type ReceiptFacts, type StateCheck } from '../audit/stateChecks';
import { canonicalJson } from '../../../shared/domain/canonical';
import { sha256Hex } from '../crypto';
import { copyLink, linksFoundOn, signatureOf } from '../store/copyRows';
import { GENERATION_ACTIONS, generationDigest } from './remediationRows';
import { validationRunDigest } from './validation';
import type { CaseDb } from '../store/caseFile';

/**
 * Teaches audit verification the receipts of source documents, spans, provenance, validation runs
 * and UNRESOLVED marks (DESIGN §3.7): verification recomputes what each receipt recorded from the
 * tables as they are now, so a row edited behind the receipts' back is named by seq.
 */

const firstTarget = (r: ReceiptFacts, prefix: string): string | null => {
  const t = r.targets.find((x) => x.startsWith(`${prefix}:`));
  return t ? t.slice(prefix.length + 1) : null;
};





/**
 * The node a revision or source gets when provenance first names it (ensureRevisionNode,
 * ensureSourceNode): entirely determined by the revision or source, so verify recomputes it.
 */
function implicitNodeDiffers(db: CaseDb, nodeId: string): string | null {
  const row = db.prepare('SELECT kind, subtype, revision_id, source_id, source_ref, label, started_at, ended_at, tenant, classification FROM prov_node WHERE node_id = ?').get(nodeId);
  if (!row) return `provenance node ${nodeId} is missing`;
  const id = nodeId.slice(4);
  const of = nodeId.startsWith('rev:')
    ? (db.prepare(`SELECT 'revision' AS subtype, r.revision_id, NULL AS source_id, l.title AS label, r.tenant, r.classification FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE r.revision_id = ?`).get(id) as Record<string, unknown> | undefined)
    : (db.prepare(`SELECT 'source' AS subtype, NULL AS revision_id, source_id, title AS label, tenant, classification FROM source_document WHERE source_id = ?`).get(id) as Record<string, unknown> | undefined);
  if (!of) return `provenance node ${nodeId} names nothing that exists`;
  const expected = { kind: 'entity', subtype: of.subtype, revision_id: of.revision_id, source_id: of.source_id, source_ref: null, label: of.label, started_at: null, ended_at: null, tenant: of.tenant, classification: of.classification };
  return canonicalJson(row) === canonicalJson(expected) ? null : `provenance node ${nodeId} differs from the ${of.subtype} it stands for`;
}

/** Whether a receipt confirmed this copy link independent (what a confirmed link must rest on). */
function confirmationReceipted(db: CaseDb, revisionId: string, copyOf: string): boolean {
  return !!db
    .prepare(
      `SELECT 1 FROM audit_receipt WHERE action = 'evidence:confirmIndependent'
         AND json_extract(body, '$.revisionId') = ? AND json_extract(body, '$.copyOf') = ? LIMIT 1`,
    )
    .get(revisionId, copyOf);
}

/**
 * UNRESOLVED marks are checked per receipt rather than as the claim's latest state: a 'latest'
 * check would make these receipts the claim's latest and hide the claim:create content check.
 * Only the newest mark or clear has to match the claim now; earlier ones were true when made.
 */
function isNewestUnresolvedReceipt(db: CaseDb, r: ReceiptFacts): boolean {
  return !db
    .prepare(`SELECT 1 FROM audit_receipt WHERE seq > ? AND action IN ('claim:markUnresolved', 'claim:clearUnresolved') AND targets = ? LIMIT 1`)
    .get(r.seq, JSON.stringify(r.targets));
}

/** null when the provenance rows this receipt added carry its author and (where exact) its time. */
function provRowsDiffer(db: CaseDb, r: ReceiptFacts, nodes: readonly string[], edges: readonly { type: string; from: string; to: string }[]): string | null {
  const node = db.prepare('SELECT created_by, created_at FROM prov_node WHERE node_id = ?');
  for (const id of nodes) {
    const row = node.get(id) as { created_by: string; created_at: string } | undefined;
    if (!row) return `provenance node ${id} is missing`;
    if (row.created_by !== r.actor) return `provenance node ${id} names ${row.created_by} as its author, not ${r.actor}, who added it`;
    const late = timeDiffers(r, row.created_at, `provenance node ${id}`);
    if (late) return late;
  }
  const edge = db.prepare('SELECT created_by, created_at FROM prov_edge WHERE subject = ? AND type = ? AND object = ?');
  for (const e of edges) {
    const row = edge.get(e.from, e.type, e.to) as { created_by: string; created_at: string } | undefined;
    if (!row) return `provenance edge ${e.type}(${e.from}, ${e.to}) is missing`;
    if (row.created_by !== r.actor) return `provenance edge ${e.type}(${e.from}, ${e.to}) names ${row.created_by} as its author, not ${r.actor}`;
    const late = timeDiffers(r, row.created_at, `provenance edge ${e.type}(${e.from}, ${e.to})`);
    if (late) return late;
  }
  return null;
}

const BINDING_ACTIONS = JSON.stringify(['claim:bind', ...GENERATION_ACTIONS]);
const BINDING_FACTS = `SELECT action, json_extract(body, '$.claimId') AS claim, json_extract(body, '$.generation') AS generation, json_extract(body, '$.revisionId') AS revision,
  json_extract(body, '$.toGeneration') AS toGeneration, json_extract(body, '$.bindingWatermark') AS watermark FROM audit_receipt`;
type BindingRow = { binding_id: number; claim_id: string; generation: number; revision_id: string };

/**
 * The first binding row (of all, or of those with `rowids`) that no receipt wrote. For some rows,
 * only the receipts naming their claims are read (through receipt_target): a bind and a
 * generation's receipt both name their claim.
 */
function unaccountedBinding(db: CaseDb, rowids: readonly number[] | null): string | null {
  type Facts = { action: string; claim: string; generation: number; revision: string; toGeneration: number; watermark: number | null };
  let some: BindingRow[] | null = null;
  let receipts: IterableIterator<Facts>;
  if (rowids === null) {
    receipts = db.prepare(`${BINDING_FACTS} WHERE action IN (SELECT value FROM json_each(?)) ORDER BY seq`).iterate(BINDING_ACTIONS) as IterableIterator<Facts>;
  } else {
    if (rowids.length === 0) return null;
    some = db.prepare('SELECT binding_id, claim_id, generation, revision_id FROM claim_binding WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY binding_id').all(JSON.stringify(rowids)) as BindingRow[];
    const claims = JSON.stringify([...new Set(some.map((b) => `claim:${b.claim_id}`))]);
    receipts = db
      .prepare(`${BINDING_FACTS} WHERE seq IN (SELECT seq FROM receipt_target WHERE target IN (SELECT value FROM json_each(?))) AND action IN (SELECT value FROM json_each(?)) ORDER BY seq`)
      .iterate(claims, BINDING_ACTIONS) as IterableIterator<Facts>;
  }
  const bound = new Set<string>();
  const written = new Map<string, number | null>();
  for (const r of receipts) {
    if (r.action === 'claim:bind') bound.add(`${r.claim}\u0000${r.generation}\u0000${r.revision}`);
    else written.set(`${r.claim}\u0000${r.toGeneration}`, r.watermark);
  }
  // Every binding is read only once the receipts are: one statement at a time on the connection.
  const bindings = some ?? (db.prepare('SELECT binding_id, claim_id, generation, revision_id FROM claim_binding ORDER BY binding_id').iterate() as IterableIterator<BindingRow>);
  for (const b of bindings) {
    if (bound.has(`${b.claim_id}\u0000${b.generation}\u0000${b.revision_id}`)) continue;
    const key = `${b.claim_id}\u0000${b.generation}`;
    const watermark = written.get(key);
    if (written.has(key) && (watermark === null || watermark === undefined || b.binding_id <= watermark)) continue;
    return `the binding of ${b.revision_id} to ${b.claim_id} (generation ${b.generation}) was written by no receipt`;
  }
  return null;
}

export const RECEIPT_CASE_CHECKS: readonly CaseStateCheck[] = [
  {
    // Each binding row was written by the claim:bind of its generation, or by the receipt that
    // wrote its generation whole (a remediation, an unbind) up to that receipt's watermark. The
    // per-receipt checks find rows missing or altered; this finds rows added (an unbound item
    // slipped back into a later generation).
    name: 'claim bindings',
    // A bind only accounts for a row; a generation written whole can take accounts back (its watermark).
    dependsOn: { tables: ['claim_binding'], actions: [...GENERATION_ACTIONS] },
    check: (db) => unaccountedBinding(db, null),
    checkRows: (db, rowids) => unaccountedBinding(db, rowids.get('claim_binding') ?? []),
  },
  /** Every provenance node was added by a prov:record receipt or by a quote that matched its source. */
  {
    name: 'provenance nodes',
    dependsOn: { tables: ['prov_node'], actions: [] },
    check: (db) => {
      const named = new Set(
        db
          .prepare(
            `SELECT n.value FROM audit_receipt, json_each(json_extract(body, '$.nodesAdded')) n WHERE action = 'prov:record'
             UNION SELECT 'rev:' || json_extract(body, '$.revisionId') FROM audit_receipt WHERE action IN ('evidence:ingest', 'evidence:revise') AND json_extract(body, '$.span.matches') = 1
             UNION SELECT 'src:' || json_extract(body, '$.span.sourceId') FROM audit_receipt WHERE action IN ('evidence:ingest', 'evidence:revise') AND json_extract(body, '$.span.matches') = 1`,
          )
          .pluck()
          .all() as string[],
      );
      const extra = (db.prepare('SELECT node_id FROM prov_node ORDER BY node_id').pluck().all() as string[]).find((id) => !named.has(id));
      return extra === undefined ? null : `provenance node ${extra} was added by no receipt`;
    },
  },
];

export const RECEIPT_STATE_CHECKS: readonly StateCheck[] = [
  {
    name: 'copy links',
    actions: ['evidence:ingest', 'evidence:revise'],
    scope: 'each',
    check: (db, r) => {
      const found = r.body().copies as { copyOf: string; jaccard: number; containment: number; reason: string }[] | undefined;
      // Receipts written before copy detection (schema 330) record none.
      if (found === undefined) return null;
      const revisionId = firstTarget(r, 'revision');
      const rows = linksFoundOn(db, revisionId ?? '');
      const recorded = canonicalJson(found.map((f) => [f.copyOf, f.jaccard, f.containment, f.reason]));
      if (canonicalJson(rows.map((l) => [l.copy_of, l.jaccard, l.containment, l.reason])) !== recorded) {
        return `probable copies of ${revisionId} differ from those this receipt recorded`;
      }
      for (const l of rows) {
        const late = timeDiffers(r, l.detected_at, `the copy link of ${revisionId} to ${l.copy_of}`);
        if (late) return late;
      }
      const confirmed = rows.find((l) => l.independent_reason !== null && !confirmationReceipted(db, l.revision_id, l.copy_of));
      if (confirmed) return `the copy link of ${confirmed.revision_id} to ${confirmed.copy_of} is marked independent without a receipt`;
      const signature = signatureOf(db, revisionId ?? '');
      if (r.artifacts.copySignature !== undefined && (signature === null || sha256Hex(signature) !== r.artifacts.copySignature)) {
        return `copy signature of ${revisionId} is not the one this receipt recorded`;
      }
      return null;
    },
  },
  {
    name: 'copy independence',
    actions: ['evidence:confirmIndependent'],
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as { revisionId: string; copyOf: string };
      const l = copyLink(db, b.revisionId, b.copyOf);
      if (!l) return `copy link of ${b.revisionId} to ${b.copyOf} is missing`;
      const state = { revisionId: l.revision_id, copyOf: l.copy_of, independentReason: l.independent_reason, confirmedBy: l.confirmed_by, confirmedAt: l.confirmed_at };
      return postDiffers(r, state, `independence of ${b.revisionId} and ${b.copyOf}`);
    },
  },
  {
    name: 'source document',
    actions: ['source:add'],
    scope: 'each',
    check: (db, r) => {
      const id = firstTarget(r, 'source');
      const row = db.prepare('SELECT * FROM source_document WHERE source_id = ?').get(id) as
        | { source_id: string; title: string; media_type: string; tenant: string; classification: string; content: string; content_sha256: string; created_by: string; created_at: string }
        | undefined;
      if (!row) return `source document ${id} is missing`;
      const late = timeDiffers(r, row.created_at, `source document ${id}`);
      if (late) return late;
      if (sha256Hex(row.content) !== r.artifacts.content || row.content_sha256 !== r.artifacts.content) {
        return `source document ${id} no longer hashes to the digest this receipt recorded`;
      }
      // Its compartment decides who may read it: lowered, it would reach readers without clearance.
      const b = r.body() as { title: string; mediaType: string; tenant: string; classification: string };
      if (row.title !== b.title || row.media_type !== b.mediaType || row.tenant !== b.tenant || row.classification !== b.classification || row.created_by !== r.actor) {
        return `source document ${id} (title, media type, tenant, classification or author) differs from what this receipt recorded`;
      }
      return postDiffers(r, { sourceId: row.source_id, contentSha256: row.content_sha256 }, `source document ${id}`);
    },
  },
  {
    name: 'evidence span',
    actions: ['evidence:ingest', 'evidence:revise'],
    scope: 'each',
    check: (db, r) => {
      const span = r.body().span as { sourceId: string; start: number; end: number; quoteSha256: string; matches?: boolean; nodesAdded?: string[] } | undefined;
      if (!span) return null;
      const revisionId = firstTarget(r, 'revision');
      const row = db.prepare('SELECT * FROM evidence_span WHERE revision_id = ?').get(revisionId) as
        | { source_id: string; span_start: number; span_end: number; quote: string; quote_sha256: string }
        | undefined;
      if (!row) return `span of ${revisionId} is missing`;
      const same = row.source_id === span.sourceId && row.span_start === span.start && row.span_end === span.end && row.quote_sha256 === span.quoteSha256;
      if (!same || sha256Hex(row.quote) !== span.quoteSha256) return `span of ${revisionId} differs from the span this receipt recorded`;
      // A quote that matched made the revision derive (PROV) from its source: the edge that lets
      // copies quoting one document count as one source.
      if (span.matches && !db.prepare(`SELECT 1 FROM prov_edge WHERE subject = ? AND type = 'wasDerivedFrom' AND object = ?`).get(`rev:${revisionId}`, `src:${span.sourceId}`)) {
        return `the derivation of ${revisionId} from source ${span.sourceId} that this receipt's quote recorded is missing`;
      }
      if (!span.matches) return null;
      // Receipts written before the quote's nodes were recorded (schema 330) name none.
      const authored = span.nodesAdded === undefined ? null : provRowsDiffer(db, r, span.nodesAdded, [{ type: 'wasDerivedFrom', from: `rev:${revisionId}`, to: `src:${span.sourceId}` }]);
      return authored ?? implicitNodeDiffers(db, `rev:${revisionId}`) ?? implicitNodeDiffers(db, `src:${span.sourceId}`);
    },
  },
  {
    name: 'provenance',
    actions: ['prov:record'],
    scope: 'each',
    check: (db, r) => {
      const body = r.body() as {
        nodesAdded: string[]; edges: { type: string; from: string; to: string }[]; tenant: string; classification: string;
        nodes?: { id: string; kind: string; label: string }[];
      };
      const node = db.prepare('SELECT node_id, kind, label, tenant, classification FROM prov_node WHERE node_id = ?');
      const missingNode = body.nodesAdded.find((id) => !node.get(id));
      if (missingNode) return `provenance node ${missingNode} is missing`;
      for (const id of body.nodesAdded) {
        const differs = id.startsWith('rev:') || id.startsWith('src:') ? implicitNodeDiffers(db, id) : null;
        if (differs) return differs;
      }
      // Nodes declared in the request carry their kind, label and compartment in the receipt.
      for (const declared of body.nodes ?? []) {
        const row = node.get(declared.id) as { kind: string; label: string; tenant: string; classification: string } | undefined;
        if (!row) continue;
        if (row.kind !== declared.kind || row.label !== declared.label || row.tenant !== body.tenant || row.classification !== body.classification) {
          return `provenance node ${declared.id} (kind, label or compartment) differs from what this receipt declared`;
        }
      }
      const edge = db.prepare('SELECT 1 FROM prov_edge WHERE subject = ? AND type = ? AND object = ?');
      const missingEdge = body.edges.find((e) => !edge.get(e.from, e.type, e.to));
      if (missingEdge) return `provenance edge ${missingEdge.type}(${missingEdge.from}, ${missingEdge.to}) is missing`;
      const authored = provRowsDiffer(db, r, body.nodesAdded, body.edges);
      if (authored) return authored;
      return postDiffers(r, { nodesAdded: body.nodesAdded, edges: body.edges }, 'provenance record');
    },
  },
  {
    name: 'validation run',
    actions: ['evidence:transition'],
    scope: 'each',
    check: (db, r) => {
      const v = r.body().validation as { runId: number; failed: string[]; overrideReason: string | null; digest?: string } | undefined;
      if (!v) return null;
      const run = db.prepare('SELECT revision_id, override_reason, at FROM validation_run WHERE run_id = ?').get(v.runId) as
        | { revision_id: string; override_reason: string | null; at: string }
        | undefined;
      if (!run) return `validation run ${v.runId} is missing`;
      const late = timeDiffers(r, run.at, `validation run ${v.runId}`);
      if (late) return late;
      const failed = (db.prepare('SELECT check_id FROM validation_check WHERE run_id = ? AND passed = 0 ORDER BY check_id').all(v.runId) as { check_id: string }[]).map((c) => c.check_id);
      const same =
        run.revision_id === firstTarget(r, 'revision') && run.override_reason === v.overrideReason && failed.join(',') === [...v.failed].sort().join(',');
      if (!same) return `validation run ${v.runId} (revision, failed checks or override reason) differs from what this receipt recorded`;
      // Receipts written before the run digest (schema 330) record only the failed checks.
      if (v.digest !== undefined && validationRunDigest(db, v.runId) !== v.digest) return `validation run ${v.runId} (checks, results or who ran it) differs from what this receipt recorded`;
      return null;
    },
  },
  {
    name: 'claim unbind',
    actions: ['claim:unbind'],
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as { claimId: string; toGeneration: number; bindingWatermark: number; revisionId: string };
      if (generationDigest(db, b.claimId, b.toGeneration, b.bindingWatermark) !== r.artifacts.bindings) {
        return `bindings of ${b.claimId} generation ${b.toGeneration} differ from what this receipt wrote`;
      }
      const back = db.prepare('SELECT 1 FROM claim_binding WHERE claim_id = ? AND generation = ? AND revision_id = ? AND binding_id <= ?').get(b.claimId, b.toGeneration, b.revisionId, b.bindingWatermark);
      return back ? `${b.revisionId} is bound to ${b.claimId} generation ${b.toGeneration}, which this receipt wrote without it` : null;
    },
  },
  {
    name: 'claim unresolved',
    actions: ['claim:markUnresolved', 'claim:clearUnresolved'],
    scope: 'each',
    check: (db, r) => {
      if (!isNewestUnresolvedReceipt(db, r)) return null;
      const id = firstTarget(r, 'claim');
      const row = db.prepare('SELECT claim_id, generation, unresolved_reason FROM claim WHERE claim_id = ?').get(id) as
        | { claim_id: string; generation: number; unresolved_reason: string | null }
        | undefined;
      if (!row) return `claim ${id} is missing`;
      const pre = r.body() as { generation: number };
      return postDiffers(r, { claimId: row.claim_id, generation: pre.generation, unresolvedReason: row.unresolved_reason }, `UNRESOLVED mark of claim ${id}`);
    },
  },
];
