import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import type { TimelineEvent } from '../../../shared/ipc/channels/timeline';
import type { Actor, ServiceContext } from '../context';
import { invalid } from '../errors';
import { aclFilter } from '../store/acl';
import { loadVisibleClaim } from '../store/claimRows';

type Request = ParsedRequestOf<'timeline:list'>;
type Query = { sql: string; params: (string | number)[] };

/**
 * timeline:list (issue 11.4): the case as it happened. Four streams, each read in time order from
 * its own index and at most one page long: evidence by observed time, lifecycle changes (not the
 * ingest itself: that is the evidence's own event), decisions proposed, decisions decided. The
 * page is the first `limit` of their merge by (time, key); the cursor is the last event's.
 */
export function timeline(ctx: ServiceContext, req: Request): ResponseOf<'timeline:list'> {
  if (req.claimId !== undefined) loadVisibleClaim(ctx, req.claimId, 'timeline:list');
  const cursor = req.after === undefined ? null : parseCursor(req.after);
  const rows = timelineQueries(ctx.actor, req, cursor).flatMap((q) => ctx.db.prepare(q.sql).all(...q.params) as TimelineEvent[]);
  rows.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const events = rows.slice(0, req.limit);
  const last = events[events.length - 1];
  return { events, nextCursor: rows.length > req.limit && last ? `${last.at}|${last.key}` : null };
}

function parseCursor(after: string): { at: string; key: string } {
  const bar = after.indexOf('|');
  if (bar <= 0 || bar === after.length - 1) throw invalid('timeline:list: after: not a cursor this channel gave (expected the nextCursor of the page before)', [{ path: ['after'], message: 'expected a nextCursor' }]);
  return { at: after.slice(0, bar), key: after.slice(bar + 1) };
}

/** The four streams' queries; exported so a test can hold each to its time index. */
export function timelineQueries(actor: Actor, req: Request, cursor: { at: string; key: string } | null): Query[] {
  const seeR = aclFilter(actor, 'r', { useIndex: false });
  const seeC = aclFilter(actor, 'c', { useIndex: false });
  const take = req.limit + 1;
  // Conditions on a stream's time and key, and on the revision for evidence streams; a filter the
  // request leaves out adds nothing.
  const span = (at: string, key: string) => {
    const c = conditions();
    if (cursor) c.add(`(${at} > ? OR (${at} = ? AND ${key} > ?))`, cursor.at, cursor.at, cursor.key);
    c.when(`${at} >= ?`, req.from);
    c.when(`${at} < ?`, req.to);
    return c;
  };
  const onRevision = conditions();
  onRevision.add(seeR.sql, ...seeR.params);
  onRevision.when('r.kind = ?', req.kind);
  onRevision.when('r.source_type = ?', req.sourceType);
  onRevision.when(`r.revision_id IN (SELECT b.revision_id FROM claim_binding b JOIN claim cb ON cb.claim_id = b.claim_id AND cb.generation = b.generation WHERE b.claim_id = ?)`, req.claimId);
  const queries: Query[] = [];

  const oKey = `'o:' || r.revision_id`;
  const o = span('r.observed_at', oKey);
  queries.push({
    sql: `SELECT r.observed_at AS at, ${oKey} AS key, 'observed' AS type, r.revision_id AS revisionId, NULL AS claimId, l.title, r.kind, r.state,
        r.source_type || ' · ' || r.source_ref AS detail, r.producer AS actor
      FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id)
      WHERE ${[...onRevision.where, ...o.where].join(' AND ')} ORDER BY r.observed_at, r.revision_id LIMIT ?`,
    params: [...onRevision.params, ...o.params, take],
  });

  const tKey = `'t:' || printf('%012d', t.transition_id)`;
  const t = span('t.at', tKey);
  queries.push({
    sql: `SELECT t.at, ${tKey} AS key, 'lifecycle' AS type, t.revision_id AS revisionId, NULL AS claimId, l.title, r.kind, t.to_state AS state,
        t.from_state || ' → ' || t.to_state || ': ' || t.reason AS detail, t.actor
      FROM evidence_transition t JOIN evidence_revision r ON r.revision_id = t.revision_id JOIN evidence_lineage l ON l.evidence_id = r.evidence_id
      WHERE t.from_state IS NOT NULL AND ${[...onRevision.where, ...t.where].join(' AND ')} ORDER BY t.at, t.transition_id LIMIT ?`,
    params: [...onRevision.params, ...t.params, take],
  });

  // Decisions belong to claims, not to a kind or a source: a filter on those leaves them out.
  if (req.kind === undefined && req.sourceType === undefined) {
    const claimWhere = req.claimId !== undefined ? ['d.claim_id = ?'] : [];
    const claimParams = req.claimId !== undefined ? [req.claimId] : [];
    const pKey = `'p:' || d.decision_id`;
    const p = span('d.proposed_at', pKey);
    queries.push({
      sql: `SELECT d.proposed_at AS at, ${pKey} AS key, 'proposed' AS type, NULL AS revisionId, d.claim_id AS claimId, c.statement AS title, NULL AS kind, NULL AS state,
          d.verdict || ': ' || d.rationale AS detail, d.proposed_by AS actor
        FROM decision d JOIN claim c ON c.claim_id = d.claim_id
        WHERE ${[seeC.sql, ...claimWhere, ...p.where].join(' AND ')} ORDER BY d.proposed_at, d.decision_id LIMIT ?`,
      params: [...seeC.params, ...claimParams, ...p.params, take],
    });
    const dKey = `'d:' || d.decision_id`;
    const dd = span('d.decided_at', dKey);
    queries.push({
      sql: `SELECT d.decided_at AS at, ${dKey} AS key, 'decided' AS type, NULL AS revisionId, d.claim_id AS claimId, c.statement AS title, NULL AS kind, NULL AS state,
          d.status || ' ' || d.verdict || coalesce(': ' || d.decision_note, '') AS detail, d.decided_by AS actor
        FROM decision d JOIN claim c ON c.claim_id = d.claim_id
        WHERE d.decided_at IS NOT NULL AND ${[seeC.sql, ...claimWhere, ...dd.where].join(' AND ')} ORDER BY d.decided_at, d.decision_id LIMIT ?`,
      params: [...seeC.params, ...claimParams, ...dd.params, take],
    });
  }
  return queries;
}

/** SQL conditions and their parameters, in order; `when` adds one only for a value the request gave. */
function conditions() {
  const where: string[] = [];
  const params: (string | number)[] = [];
  return {
    where,
    params,
    add(sql: string, ...values: (string | number)[]) {
      where.push(sql);
      params.push(...values);
    },
    when(sql: string, value: string | undefined) {
      if (value !== undefined) this.add(sql, value);
    },
  };
}
