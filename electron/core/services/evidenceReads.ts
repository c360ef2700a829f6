import { canTransition } from '../../../shared/domain/lifecycle';
import { RevisionId, type Transition } from '../../../shared/domain/schemas';
import { usability } from '../../../shared/domain/usable';
import { failedChecks } from '../../../shared/domain/validationChecklist';
import type { EvidenceCounts, EvidenceDetail, EvidenceSort } from '../../../shared/ipc/channels/evidence';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { z } from 'zod';
import { LIFECYCLE_STATES, type LifecycleState } from '../../../shared/domain/enums';
import { invalid } from '../errors';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { loadVisibleRevision, SUMMARY_COLUMNS, toDetail, toSummary, usabilityInput, type RevisionRow } from '../store/evidenceRows';
import { copiesOf } from './copies';
import { spanOf } from './sources';
import { checklistFor, latestValidationRun } from './validation';

type ListRequest = ParsedRequestOf<'evidence:list'>;
type QueueFilter = Pick<ListRequest, 'state' | 'kind' | 'text'>;

/**
 * Each order of the queue: the column it walks (every one backed by an index, with revision_id
 * breaking ties), and whether it walks it backwards.
 */
const ORDERS: Record<EvidenceSort, { column: string | null; desc: boolean }> = {
  revision: { column: null, desc: false },
  'observed-asc': { column: 'r.observed_at', desc: false },
  'observed-desc': { column: 'r.observed_at', desc: true },
  state: { column: 'r.state', desc: false },
};

/** LIKE pattern for "contains `text`", with the wildcards in it taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The words filter as a phrase of the trigram index of revision labels (migration 0470): the
 * needle folded to lower case for ASCII only, as the labels are, which matches what LIKE matched.
 * Null when the index cannot answer it (under three characters, or holding the fields' separator).
 */
export function labelPhrase(text: string): string | null {
  if ([...text].length < 3 || text.includes('\u001f')) return null;
  return `"${text.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/"/g, '""')}"`;
}
const LABEL_MATCH = 'SELECT k.revision_id FROM evidence_label_fts f JOIN evidence_search_key k ON k.rid = f.rowid WHERE evidence_label_fts MATCH ?';

/** The WHERE of the queue's filters (ACL first); the state filter can be left out for per-state counts. */
function queueWhere(actor: ServiceContext['actor'], filter: QueueFilter, withState: boolean, useIndex: boolean): { where: string[]; params: (string | number)[] } {
  const acl = aclFilter(actor, 'r', { useIndex });
  const where = [acl.sql];
  const params: (string | number)[] = [...acl.params];
  if (withState && filter.state !== undefined) {
    where.push('r.state = ?');
    params.push(filter.state);
  }
  if (filter.kind !== undefined) {
    where.push('r.kind = ?');
    params.push(filter.kind);
  }
  const text = filter.text?.trim();
  const phrase = text ? labelPhrase(text) : null;
  if (phrase !== null) {
    where.push(`r.revision_id IN (${LABEL_MATCH})`);
    params.push(phrase);
  } else if (text) {
    const fields = ['r.revision_id', 'l.title', 'r.source_type', 'r.producer'];
    where.push(`(${fields.map((f) => `${f} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    params.push(...fields.map(() => containing(text)));
  }
  return { where, params };
}

/** A page cursor: the last row's revision id, and for the other orders its sort value before it. */
const Cursor = z.union([RevisionId, z.tuple([z.string().nullable(), RevisionId])]);

function readCursor(after: string, sort: EvidenceSort): { value: string | null; revisionId: string } {
  let parsed: unknown = after;
  if (sort !== 'revision') {
    try {
      parsed = JSON.parse(after);
    } catch {
      parsed = undefined;
    }
  }
  const cursor = Cursor.safeParse(parsed);
  const fits = cursor.success && (sort === 'revision') === (typeof cursor.data === 'string');
  if (!fits) throw invalid(`evidence:list: after is not a cursor of the ${sort} order; pass back the nextCursor of a page asked with the same sort`, [{ path: ['after'], message: `expected a ${sort} cursor` }]);
  return typeof cursor.data === 'string' ? { value: null, revisionId: cursor.data } : { value: cursor.data[0], revisionId: cursor.data[1] };
}

/**
 * The rows after (value, revisionId) in the order of `column` then revision id. SQLite puts NULL
 * first going up and last going down (observed_at may be NULL), and a comparison with NULL is
 * never true, so the NULL rows get their own branch.
 */
function afterSorted(column: string, desc: boolean, value: string | null, revisionId: string): { sql: string; params: string[] } {
  const idAfter = desc ? 'r.revision_id < ?' : 'r.revision_id > ?';
  if (value === null) {
    return desc
      ? { sql: `(${column} IS NULL AND ${idAfter})`, params: [revisionId] }
      : { sql: `((${column} IS NULL AND ${idAfter}) OR ${column} IS NOT NULL)`, params: [revisionId] };
  }
  const after = `(${column}, r.revision_id) ${desc ? '<' : '>'} (?, ?)`;
  return { sql: desc ? `(${after} OR ${column} IS NULL)` : after, params: [value, revisionId] };
}

/** The page query of evidence:list; exported so a test can hold its query plan to an index. */
export function listEvidenceQuery(
  actor: ServiceContext['actor'],
  req: Pick<ListRequest, 'state' | 'kind' | 'limit' | 'after'> & Partial<Pick<ListRequest, 'text' | 'sort'>>,
): { sql: string; params: (string | number)[] } {
  const sort = req.sort ?? 'revision';
  const { where, params } = queueWhere(actor, req, true, false);
  const { column, desc } = ORDERS[sort];
  const dir = desc ? 'DESC' : 'ASC';
  if (req.after !== undefined) {
    const { value, revisionId } = readCursor(req.after, sort);
    const after = column === null ? { sql: 'r.revision_id > ?', params: [revisionId] } : afterSorted(column, desc, value, revisionId);
    where.push(after.sql);
    params.push(...after.params);
  }
  const order = column === null ? 'r.revision_id' : `${column} ${dir}, r.revision_id ${dir}`;
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id)
       WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`,
    params: [...params, req.limit + 1],
  };
}

/** For each row of a page, the latest move into its current state: one read for the page, by the transitions' revision index. */
function enteredState(ctx: ServiceContext, rows: readonly RevisionRow[]): Map<string, Transition> {
  const out = new Map<string, Transition>();
  if (rows.length === 0) return out;
  const stateOf = new Map(rows.map((r) => [r.revision_id, r.state]));
  const moves = ctx.db
    .prepare(
      `SELECT revision_id, from_state, to_state, reason, actor, at, supporting_ref FROM evidence_transition
       WHERE revision_id IN (${rows.map(() => '?').join(', ')}) ORDER BY transition_id`,
    )
    .all(...stateOf.keys()) as { revision_id: string; from_state: LifecycleState | null; to_state: LifecycleState; reason: string; actor: string; at: string; supporting_ref: string | null }[];
  for (const m of moves) {
    if (m.to_state !== stateOf.get(m.revision_id)) continue;
    out.set(m.revision_id, { from: m.from_state, to: m.to_state, reason: m.reason, actor: m.actor, at: m.at, supportingRef: m.supporting_ref });
  }
  return out;
}

/** The count query of evidence:list; exported so a test can hold its plan to the counting index. */
export function countEvidenceQuery(actor: ServiceContext['actor'], req: QueueFilter): { sql: string; params: (string | number)[] } {
  const phrase = req.text?.trim() ? labelPhrase(req.text.trim()) : null;
  if (phrase !== null) {
    // The label index holds what the counts group and filter by: only the matching labels are read.
    const { where, params } = queueWhere(actor, { ...req, text: undefined }, false, false);
    return {
      sql: `SELECT r.state AS state, COUNT(*) AS n FROM evidence_label_fts r WHERE evidence_label_fts MATCH ? AND ${where.join(' AND ')} GROUP BY r.state`,
      params: [phrase, ...params],
    };
  }
  // Without a text filter the counts read only evidence_revision_queue_counts (no row, no title);
  // with one too short for the label index, every visible row and its title are read, and the ACL
  // index would only add lookups.
  const text = Boolean(req.text?.trim());
  const { where, params } = queueWhere(actor, req, false, !text);
  const lineage = text ? 'JOIN evidence_lineage l USING (evidence_id)' : '';
  return { sql: `SELECT r.state AS state, COUNT(*) AS n FROM evidence_revision r ${lineage} WHERE ${where.join(' AND ')} GROUP BY r.state`, params };
}

/** How many visible revisions match the filters, in all and per state (the state filter aside). */
function countEvidence(ctx: ServiceContext, req: ListRequest): EvidenceCounts {
  const query = countEvidenceQuery(ctx.actor, req);
  const rows = ctx.db.prepare(query.sql).all(...query.params) as { state: LifecycleState; n: number }[];
  const byState = Object.fromEntries(LIFECYCLE_STATES.map((state) => [state, 0])) as Record<LifecycleState, number>;
  for (const r of rows) byState[r.state] = r.n;
  const total = req.state !== undefined ? byState[req.state] : rows.reduce((sum, r) => sum + r.n, 0);
  return { total, byState };
}

/** evidence:list; `sort` and `counts` may be left out by callers inside the process (the channel fills them in). */
export function listEvidence(ctx: ServiceContext, request: Omit<ListRequest, 'sort' | 'counts'> & Partial<Pick<ListRequest, 'sort' | 'counts'>>): ResponseOf<'evidence:list'> {
  const req: ListRequest = { sort: 'revision', counts: false, ...request };
  const query = listEvidenceQuery(ctx.actor, req);
  const rows = ctx.db.prepare(query.sql).all(...query.params) as RevisionRow[];
  const page = rows.slice(0, req.limit);
  const last = page[page.length - 1];
  const { column } = ORDERS[req.sort];
  const cursorOf = (r: RevisionRow) => (column === null ? r.revision_id : JSON.stringify([req.sort === 'state' ? r.state : r.observed_at, r.revision_id]));
  const entered = enteredState(ctx, page);
  return {
    items: page.map((r) => ({ ...toSummary(r), entered: entered.get(r.revision_id) ?? null })),
    nextCursor: rows.length > req.limit && last ? cursorOf(last) : null,
    ...(req.counts ? { counts: countEvidence(ctx, req) } : {}),
  };
}

export function getEvidence(ctx: ServiceContext, revisionId: string): EvidenceDetail {
  const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:get');
  const detail = toDetail(ctx.db, row);
  return {
    ...detail,
    // Scope is empty here: applicability to a particular claim is judged where the claim is.
    usability: usability(usabilityInput(row), { clearance: ctx.actor, now: ctx.now(), scope: [] }),
    validation: latestValidationRun(ctx, revisionId),
    span: spanOf(ctx, revisionId),
    copies: copiesOf(ctx, revisionId),
    boundTo: claimsBindingRevision(ctx, revisionId),
    lineage: lineageOf(ctx, row.evidence_id),
  };
}

/** The visible revisions of one evidence lineage, newest first. */
function lineageOf(ctx: ServiceContext, evidenceId: string): EvidenceDetail['lineage'] {
  const acl = aclFilter(ctx.actor, 'r');
  return ctx.db
    .prepare(
      `SELECT r.revision_id AS revisionId, r.revision, r.state, r.observed_at AS observedAt FROM evidence_revision r
       WHERE r.evidence_id = ? AND ${acl.sql} ORDER BY r.revision DESC LIMIT 200`,
    )
    .all(evidenceId, ...acl.params) as EvidenceDetail['lineage'];
}

/** The visible claims whose current generation binds this revision (the binding index by revision). */
function claimsBindingRevision(ctx: ServiceContext, revisionId: string): EvidenceDetail['boundTo'] {
  const acl = aclFilter(ctx.actor, 'c');
  return ctx.db
    .prepare(
      `SELECT b.claim_id AS claimId, c.statement, b.relation, b.role FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
       WHERE b.revision_id = ? AND ${acl.sql} ORDER BY b.claim_id LIMIT 200`,
    )
    .all(revisionId, ...acl.params) as EvidenceDetail['boundTo'];
}

/** evidence:validate: the checklist as a dry run; computes and answers, writes nothing. */
export function validateEvidence(ctx: ServiceContext, revisionId: string) {
  const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:validate');
  const checks = checklistFor(ctx, row);
  return { revisionId, state: row.state, canValidate: canTransition(row.state, 'VALIDATED'), passed: failedChecks(checks).length === 0, checks };
}
