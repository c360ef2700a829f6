import type Database from 'better-sqlite3';
import type { CaseDb } from '../store/caseFile';
import { replicatedTables, type RowImage } from '../store/replicaRows';
import type { ChangedRows } from './verifyOptions';

/**
 * The targets a row answers to (issue 15): the receipt targets whose state checks read it. A pull
 * that changes a row re-checks every receipt naming one of these, so the list errs on the side of
 * naming too much (a target too many costs one more check; one too few would let a change pass
 * unchecked). A table missing here is one a pull cannot verify incrementally: it verifies the
 * whole file instead (team/replica.ts).
 *
 * Each entry is SQL over the row, as `x`, giving a target, null, or a JSON array of targets.
 * Provenance nodes are named `prov:<node>`, and the implicit node of a revision or source
 * (`rev:<id>`, `src:<id>`) stands for that revision or source too.
 */
const CASE = `'case:' || (SELECT value FROM case_meta WHERE key = 'case_id')`;
const PROV_END = (column: string) =>
  `CASE WHEN x.${column} LIKE 'rev:%' THEN 'revision:' || substr(x.${column}, 5) WHEN x.${column} LIKE 'src:%' THEN 'source:' || substr(x.${column}, 5) END`;

const ROW_TARGETS: Readonly<Record<string, readonly string[]>> = {
  case_meta: [CASE],
  // The case's first admin is created, and their first key registered, by case:create.
  actor: [`'actor:' || x.actor_id`, CASE],
  actor_key: [`'actor:' || x.actor_id`, `'key:' || x.key_id`, CASE],
  evidence_lineage: [
    `(SELECT json_group_array('revision:' || revision_id) FROM evidence_revision r WHERE r.evidence_id = x.evidence_id)`,
    `(SELECT json_group_array('prov:rev:' || revision_id) FROM evidence_revision r WHERE r.evidence_id = x.evidence_id)`,
  ],
  evidence_revision: [`'revision:' || x.revision_id`, `'revision:' || x.supersedes`, `'prov:rev:' || x.revision_id`],
  evidence_transition: [`'revision:' || x.revision_id`, `'revision:' || x.supporting_ref`],
  claim: [`'claim:' || x.claim_id`],
  claim_binding: [`'claim:' || x.claim_id`, `'revision:' || x.revision_id`],
  validation_run: [`'revision:' || x.revision_id`],
  validation_check: [`(SELECT 'revision:' || v.revision_id FROM validation_run v WHERE v.run_id = x.run_id)`],
  source_document: [
    `'source:' || x.source_id`,
    `'prov:src:' || x.source_id`,
    `(SELECT json_group_array('revision:' || s.revision_id) FROM evidence_span s WHERE s.source_id = x.source_id)`,
  ],
  evidence_span: [`'revision:' || x.revision_id`, `'source:' || x.source_id`],
  prov_node: [`'prov:' || x.node_id`, `'revision:' || x.revision_id`, `'source:' || x.source_id`],
  prov_edge: [`'prov:' || x.subject`, `'prov:' || x.object`, PROV_END('subject'), PROV_END('object')],
  decision: [`'decision:' || x.decision_id`, `'claim:' || x.claim_id`],
  review_vote: [`'vote:' || x.vote_id`, `'claim:' || x.claim_id`],
  outbox_job: [
    `'job:' || x.job_id`,
    `'fence:' || x.fence_id`,
    `'fence:' || x.root_fence_id`,
    `(SELECT 'revision:' || f.revision_id FROM revocation_fence f WHERE f.fence_id = x.fence_id)`,
  ],
  fence_progress: [`'fence:' || x.fence_id`],
  support_projection: [`'claim:' || x.claim_id`, `'job:' || x.job_id`],
  projection_ledger: [`'fence:' || x.fence_id`, `'claim:' || x.claim_id`, `'job:' || x.job_id`],
  remediation: [
    `'remediation:' || x.remediation_id`,
    `'claim:' || x.claim_id`,
    `'decision:' || x.decision_id`,
    `'decision:' || x.carried_decision_id`,
    `'fence:' || x.fence_id`,
    `'job:' || x.job_id`,
  ],
  revocation_fence: [
    `'fence:' || x.fence_id`,
    `'fence:' || x.root_fence_id`,
    `'fence:' || x.parent_fence_id`,
    `'revision:' || x.revision_id`,
    `'revision:' || x.supporting_ref`,
    `(SELECT json_group_array('job:' || j.job_id) FROM outbox_job j WHERE j.fence_id = x.fence_id)`,
  ],
  copy_signature: [`'revision:' || x.revision_id`],
  copy_band: [`(SELECT 'revision:' || s.revision_id FROM copy_signature s WHERE s.sig_id = x.sig_id)`],
  evidence_copy: [`'revision:' || x.revision_id`, `'revision:' || x.copy_of`],
  computation: [`'computation:' || x.computation_id`, `'claim:' || x.claim_id`],
  computation_input: [`'computation:' || x.computation_id`, `'revision:' || x.revision_id`],
};

/** Whether a pull can tell which receipts a row of `table` answers to. */
export const answersToTargets = (table: string): boolean => Object.hasOwn(ROW_TARGETS, table);

/**
 * Reads rows' targets, one statement per table prepared once. `key` names the row as replicaRows
 * does: its rowid, or a rowid-less table's primary key columns in order.
 */
function rowTargetReader(db: CaseDb): (table: string, keyColumns: readonly string[], key: readonly (string | number)[]) => string[] {
  const statements = new Map<string, Database.Statement>();
  return (table, keyColumns, key) => {
    const exprs = ROW_TARGETS[table];
    if (!exprs) throw new Error(`rowTargets: no targets are known for rows of ${table}`);
    let stmt = statements.get(table);
    if (!stmt) {
      const where = keyColumns.map((k) => `x."${k}" = ?`).join(' AND ');
      stmt = db.prepare(`SELECT json_array(${exprs.join(', ')}) FROM "${table}" AS x WHERE ${where}`).pluck();
      statements.set(table, stmt);
    }
    const found = stmt.get(...key) as string | undefined;
    if (found === undefined) return [];
    const out: string[] = [];
    for (const v of JSON.parse(found) as unknown[]) {
      if (typeof v === 'string' && v.startsWith('[')) out.push(...(JSON.parse(v) as string[]));
      else if (Array.isArray(v)) out.push(...(v as string[]));
      else if (typeof v === 'string') out.push(v);
    }
    return out;
  };
}

/**
 * The rows the images name, and what they answer to before and after (`note` is called on each
 * side of applying them); null when some row's table has no known targets.
 */
export function trackChanges(db: CaseDb, images: readonly RowImage[]): { note: () => void; changed: ChangedRows } | null {
  if (!images.every((i) => answersToTargets(i.t))) return null;
  const keys = new Map(replicatedTables(db).map((t) => [t.name, t.key]));
  const targetsOf = rowTargetReader(db);
  const targets = new Set<string>();
  const rowids = new Map<string, number[]>();
  for (const i of images) {
    if (keys.get(i.t)?.[0] !== 'rowid') continue;
    let ids = rowids.get(i.t);
    if (!ids) rowids.set(i.t, (ids = []));
    ids.push(Number(i.k[0]));
  }
  const note = () => {
    for (const i of images) {
      const key = keys.get(i.t);
      if (key) for (const t of targetsOf(i.t, key, i.k)) targets.add(t);
    }
  };
  return { note, changed: { tables: new Set(images.map((i) => i.t)), targets, rowids } };
}
