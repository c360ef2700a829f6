import type { LifecycleState } from '../../../shared/domain/enums';
import type { SearchHit } from '../../../shared/ipc/channels/search';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';

/**
 * Full-text search (SQLite FTS5) over evidence titles and content and claim statements. The ACL is
 * part of the SQL that finds and counts hits, so a document outside the clearance never becomes a
 * hit, a snippet or a count.
 */

const MAX_TERMS = 16;
const MAX_TERM_LENGTH = 100;
// Letters or digits: a "term" of only punctuation tokenizes to nothing and would match nothing.
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * Turns what the user typed into an FTS5 query that cannot be a syntax error: every word becomes a
 * quoted phrase (so AND, OR, NEAR, parentheses, column filters and quotes are just text), words are
 * ANDed, and a trailing * keeps its meaning as a prefix search. Null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const terms: string[] = [];
  for (const raw of input.normalize('NFKC').split(/\s+/)) {
    // Control characters have no business in a query; double quotes would end the phrase early.
    const word = raw.replace(/[\u0000-\u001f\u007f"]/g, '');
    const prefix = /[^*]\*+$/.test(word);
    const core = word.replace(/\*+$/, '').slice(0, MAX_TERM_LENGTH);
    if (!HAS_WORD.test(core)) continue;
    terms.push(`"${core}"${prefix && core.length >= 2 ? '*' : ''}`);
    if (terms.length === MAX_TERMS) break;
  }
  return terms.length > 0 ? terms.join(' ') : null;
}

const HIDDEN_STATES: readonly LifecycleState[] = ['QUARANTINED', 'REVOKED'];

/**
 * The order of hits depends on each hit alone (issue 9.7, seed 000 §38): hits whose title (a
 * claim's statement is its title) matches come first, then the newest, then by id. Not bm25():
 * its scores weigh every term by how rare it is across the whole index, hidden documents
 * included, so the order of what you may see would tell you about what you may not.
 */
interface RankedHit extends SearchHit {
  inTitle: number;
  createdAt: string;
  rid: number;
}

/** The evidence query, exported so a test can hold its plan to the FTS index. */
export function evidenceSearchSql(ctx: ServiceContext, match: string, includeQuarantined: boolean, select: 'hits' | 'count'): { sql: string; params: string[] } {
  const acl = aclFilter(ctx.actor, 'r');
  const states = includeQuarantined ? '' : ` AND r.state NOT IN (${HIDDEN_STATES.map(() => '?').join(', ')})`;
  const columns =
    select === 'count'
      ? 'COUNT(*) AS n'
      : `k.rid, r.revision_id AS id, l.title, r.state, r.created_at AS createdAt,
         k.rid IN (SELECT rowid FROM evidence_fts WHERE evidence_fts MATCH ?) AS inTitle`;
  const tail = select === 'count' ? '' : ' ORDER BY inTitle DESC, createdAt DESC, id LIMIT ?';
  return {
    sql: `SELECT ${columns}
      FROM evidence_fts
      JOIN evidence_search_key k ON k.rid = evidence_fts.rowid
      JOIN evidence_revision r ON r.revision_id = k.revision_id
      JOIN evidence_lineage l ON l.evidence_id = r.evidence_id
      WHERE evidence_fts MATCH ? AND ${acl.sql}${states}${tail}`,
    params: [...(select === 'count' ? [] : [`{title} : (${match})`]), match, ...acl.params, ...(includeQuarantined ? [] : HIDDEN_STATES)],
  };
}

function claimSearchSql(ctx: ServiceContext, match: string, select: 'hits' | 'count'): { sql: string; params: string[] } {
  const acl = aclFilter(ctx.actor, 'c');
  const columns = select === 'count' ? 'COUNT(*) AS n' : 'k.rid, c.claim_id AS id, c.statement AS title, c.created_at AS createdAt, 1 AS inTitle';
  const tail = select === 'count' ? '' : ' ORDER BY createdAt DESC, id LIMIT ?';
  return {
    sql: `SELECT ${columns}
      FROM claim_fts
      JOIN claim_search_key k ON k.rid = claim_fts.rowid
      JOIN claim c ON c.claim_id = k.claim_id
      WHERE claim_fts MATCH ? AND ${acl.sql}${tail}`,
    params: [match, ...acl.params],
  };
}

export function searchCase(ctx: ServiceContext, req: ParsedRequestOf<'search:query'>): { hits: SearchHit[]; total: number } {
  const match = toFtsQuery(req.q);
  if (match === null) return { hits: [], total: 0 };
  const ev = evidenceSearchSql(ctx, match, req.includeQuarantined, 'hits');
  const evCount = evidenceSearchSql(ctx, match, req.includeQuarantined, 'count');
  const cl = claimSearchSql(ctx, match, 'hits');
  const clCount = claimSearchSql(ctx, match, 'count');
  const evidence = (ctx.db.prepare(ev.sql).all(...ev.params, req.limit) as Omit<RankedHit, 'kind' | 'snippet'>[]).map(
    (h) => ({ ...h, kind: 'evidence' as const, snippet: '' }),
  );
  const claims = (ctx.db.prepare(cl.sql).all(...cl.params, req.limit) as Omit<RankedHit, 'kind' | 'snippet' | 'state'>[]).map(
    (h) => ({ ...h, kind: 'claim' as const, state: null, snippet: '' }),
  );
  const count = (q: { sql: string; params: string[] }) => (ctx.db.prepare(q.sql).get(...q.params) as { n: number }).n;
  const top = [...evidence, ...claims]
    .sort((a, b) => b.inTitle - a.inTitle || (a.createdAt === b.createdAt ? 0 : a.createdAt > b.createdAt ? -1 : 1) || (a.id < b.id ? -1 : 1))
    .slice(0, req.limit);
  // Evidence snippets come from the content (column 1): the title is already in the hit.
  // Snippets only for the page actually returned: snippet() reads the document text back, which
  // is the expensive part of a hit, so it is not paid for every candidate the ranking discards.
  // CAST: better-sqlite3 binds JS numbers as REAL, and FTS5 silently drops a REAL rowid = ?
  // constraint next to MATCH (every matching row comes back), so the rowid must arrive as INTEGER.
  const evidenceSnippet = ctx.db.prepare(
    `SELECT snippet(evidence_fts, 1, '', '', '…', 16) AS s FROM evidence_fts WHERE evidence_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
  );
  const claimSnippet = ctx.db.prepare(
    `SELECT snippet(claim_fts, 0, '', '', '…', 24) AS s FROM claim_fts WHERE claim_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
  );
  return {
    hits: top.map(({ inTitle: _inTitle, createdAt: _createdAt, rid, ...hit }) => ({
      ...hit,
      snippet: ((hit.kind === 'evidence' ? evidenceSnippet : claimSnippet).get(match, rid) as { s: string } | undefined)?.s ?? '',
    })),
    total: count(evCount) + count(clCount),
  };
}
