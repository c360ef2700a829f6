import type { ClaimSummary, RevisionSummary } from '../../../shared/domain/schemas';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import type { Actor, ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { loadVisibleClaim, visibleClaimIds, visibleClaimRowsIn } from '../store/claimRows';
import { loadVisibleRevision, SUMMARY_COLUMNS, toSummary, type RevisionRow } from '../store/evidenceRows';
import { claimSummaries, listClaims } from './claims';
import type { ClaimSet } from './claimMemo';
import { claimReviewStandings } from './review';

/**
 * The graph view's read (issue 11.2): a neighbourhood of the case, never the whole of it. Claims
 * and evidence revisions are the nodes; a binding of a claim's current generation is the edge.
 * Starting from the focus it walks `hops` steps out, then adds the neighbours of each node the
 * analyst expanded, breadth first, until `limit` nodes are drawn; every drawn node then counts its
 * neighbours left out, so the view can offer them. Everything is read within the reader's
 * clearance: a neighbour they may not see is neither drawn nor counted.
 */
export function graphNeighbourhood(ctx: ServiceContext, req: ParsedRequestOf<'graph:neighbourhood'>): ResponseOf<'graph:neighbourhood'> {
  const claimOrder = visibleClaimIds(ctx);
  const drawn = new Set<string>();
  const full = () => drawn.size >= req.limit;
  const walk = new Neighbours(ctx);
  let pivot: ResponseOf<'graph:neighbourhood'>['pivot'] = null;
  let disputes: ResponseOf<'graph:neighbourhood'>['disputes'] = null;

  // Breadth first from `layer`, `hops` steps; returns nothing, fills `drawn` up to the limit.
  const spread = (layer: string[], hops: number) => {
    for (let hop = 0; hop < hops && layer.length > 0 && !full(); hop++) {
      const next: string[] = [];
      const around = walk.of(layer);
      for (const node of layer) {
        for (const n of around.get(node) ?? []) {
          if (drawn.has(n) || full()) continue;
          drawn.add(n);
          next.push(n);
        }
      }
      layer = next;
    }
  };

  if (req.focus.kind === 'case') {
    // The case's claims in list order, each with its neighbourhood, while they fit.
    for (let i = 0; i < claimOrder.length; i += 200) {
      const batch = claimOrder.slice(i, i + 200).map(claimRef);
      const around = req.hops > 0 ? walk.of(batch) : new Map<string, string[]>();
      let stop = false;
      for (const claim of batch) {
        const fresh = (around.get(claim) ?? []).filter((n) => !drawn.has(n));
        if (drawn.size > 0 && drawn.size + 1 + fresh.length > req.limit) {
          stop = true;
          break;
        }
        drawn.add(claim);
        for (const n of fresh) if (!full()) drawn.add(n);
      }
      if (stop) break;
    }
    if (req.hops > 1) spread([...drawn].filter((n) => n.startsWith('rev:')), req.hops - 1);
  } else if (req.focus.kind === 'disputes') {
    // What the Disputes view lists: MIXED claims (derived, as claim:list derives them) and DISPUTED
    // revisions, at most half the limit, then their neighbours as far as the rest allows.
    const mixed = listClaims(ctx).filter((c) => c.status === 'MIXED').map((c) => claimRef(c.claimId));
    const disputed = disputedRevisions(ctx).map(revRef);
    const all = [...mixed, ...disputed];
    const seeds = all.slice(0, Math.floor(req.limit / 2));
    for (const seed of seeds) drawn.add(seed);
    disputes = { total: all.length, notShown: all.length - seeds.length };
    spread(seeds, req.hops);
  } else if (req.focus.kind === 'source' || req.focus.kind === 'group') {
    // A pivot: the revisions sharing the focus revision's source or independence group (at most
    // half the limit, the focus first), then the claims binding them as far as the rest allows.
    const row = loadVisibleRevision(ctx.db, ctx.actor, req.focus.id, 'graph:neighbourhood');
    const value = req.focus.kind === 'source' ? row.source_ref : row.independence_group;
    const sharing = value === null ? [row.revision_id] : sharingRevisions(ctx, req.focus.kind, value);
    const seeds = [row.revision_id, ...sharing.filter((id) => id !== row.revision_id)].slice(0, Math.max(1, Math.floor(req.limit / 2))).map(revRef);
    for (const seed of seeds) drawn.add(seed);
    pivot = { by: req.focus.kind, value, total: sharing.length, notShown: sharing.length - seeds.length };
    spread(seeds, req.hops);
  } else {
    // A focus the reader may not see answers exactly like a missing one.
    const seed = req.focus.kind === 'claim' ? claimRef(loadVisibleClaim(ctx, req.focus.id, 'graph:neighbourhood').claim_id) : revRef(loadVisibleRevision(ctx.db, ctx.actor, req.focus.id, 'graph:neighbourhood').revision_id);
    drawn.add(seed);
    spread([seed], req.hops);
  }
  for (const node of req.expand) if (drawn.has(node)) spread([node], 1);

  // What each drawn node has that is not drawn.
  const around = walk.of([...drawn]);
  const hidden: Record<string, number> = {};
  for (const node of drawn) {
    const left = (around.get(node) ?? []).filter((n) => !drawn.has(n)).length;
    if (left > 0) hidden[node] = left;
  }

  const claimIds = [...drawn].filter((n) => n.startsWith('claim:')).map((n) => n.slice('claim:'.length));
  const revisionIds = [...drawn].filter((n) => n.startsWith('rev:')).map((n) => n.slice('rev:'.length));
  const position = new Map(claimOrder.map((id, i) => [id, i]));
  const drawnClaims: ClaimSet = { ids: () => claimIds, rows: (ids) => visibleClaimRowsIn(ctx, ids) };
  const claims: ClaimSummary[] = claimIds.length > 0 ? claimSummaries(ctx, drawnClaims) : [];
  claims.sort((a, b) => position.get(a.claimId)! - position.get(b.claimId)!);
  const reviews = claimIds.length > 0 ? claimReviewStandings(ctx, drawnClaims) : [];
  const unbound = req.unbound ? unboundRevisions(ctx, drawn) : { items: [], notShown: 0 };
  return {
    claims,
    reviews,
    revisions: [...revisionSummaries(ctx, revisionIds), ...unbound.items],
    hidden,
    totalClaims: claimOrder.length,
    claimsNotShown: claimOrder.length - claims.length,
    unboundNotShown: unbound.notShown,
    disputes,
    pivot,
  };
}

/** DISPUTED revisions you may see, by id (through the state index). */
function disputedRevisions(ctx: ServiceContext): string[] {
  const see = aclFilter(ctx.actor, 'r', { useIndex: false });
  return ctx.db.prepare(`SELECT r.revision_id FROM evidence_revision r WHERE r.state = 'DISPUTED' AND ${see.sql} ORDER BY r.revision_id`).pluck().all(...see.params) as string[];
}

/** Counting stops here: "more than 10,000" is all a pivot's extent says. */
const PIVOT_COUNTED = 10_000;

/** The visible revisions sharing a source reference or an independence group, by id (found by their index). */
function sharingRevisions(ctx: ServiceContext, by: 'source' | 'group', value: string): string[] {
  const q = sharingRevisionsQuery(ctx.actor, by, value);
  return ctx.db.prepare(q.sql).pluck().all(...q.params) as string[];
}

export function sharingRevisionsQuery(actor: Actor, by: 'source' | 'group', value: string): Query {
  const see = aclFilter(actor, 'r', { useIndex: false });
  const column = by === 'source' ? 'source_ref' : 'independence_group';
  return {
    sql: `SELECT r.revision_id FROM evidence_revision r WHERE r.${column} = ? AND ${see.sql} ORDER BY r.revision_id LIMIT ${PIVOT_COUNTED}`,
    params: [value, ...see.params],
  };
}

const claimRef = (claimId: string) => `claim:${claimId}`;
const revRef = (revisionId: string) => `rev:${revisionId}`;

/**
 * Neighbours within the reader's clearance, read in batches and kept for the call: a claim's are
 * the revisions its current generation binds (in binding order), a revision's the claims whose
 * current generation binds it (in claim order).
 */
class Neighbours {
  private readonly known = new Map<string, string[]>();
  constructor(private readonly ctx: ServiceContext) {}

  of(nodes: readonly string[]): Map<string, string[]> {
    const missing = nodes.filter((n) => !this.known.has(n));
    const claims = missing.filter((n) => n.startsWith('claim:')).map((n) => n.slice('claim:'.length));
    const revisions = missing.filter((n) => n.startsWith('rev:')).map((n) => n.slice('rev:'.length));
    for (const n of missing) this.known.set(n, []);
    for (let i = 0; i < claims.length; i += 500) {
      const q = claimNeighboursQuery(this.ctx.actor, claims.slice(i, i + 500));
      for (const r of this.ctx.db.prepare(q.sql).all(...q.params) as { claim: string; rev: string }[]) addOnce(this.known.get(claimRef(r.claim))!, revRef(r.rev));
    }
    for (let i = 0; i < revisions.length; i += 500) {
      const q = revisionNeighboursQuery(this.ctx.actor, revisions.slice(i, i + 500));
      for (const r of this.ctx.db.prepare(q.sql).all(...q.params) as { claim: string; rev: string }[]) addOnce(this.known.get(revRef(r.rev))!, claimRef(r.claim));
    }
    return new Map(nodes.map((n) => [n, this.known.get(n)!]));
  }
}

type Query = { sql: string; params: string[] };

// The reader's clearance filters rows found by key: `useIndex: false` keeps SQLite (on a case file
// never ANALYZEd) from walking every revision of the tenant through the ACL index instead
// (queryPlans.test.ts holds these to their keys).

/** The revisions (visible) the current generation of each claim binds, in binding order. */
export function claimNeighboursQuery(actor: Actor, claimIds: readonly string[]): Query {
  const see = aclFilter(actor, 'r', { useIndex: false });
  return {
    sql: `SELECT b.claim_id AS claim, b.revision_id AS rev FROM claim c
      JOIN claim_binding b ON b.claim_id = c.claim_id AND b.generation = c.generation
      JOIN evidence_revision r ON r.revision_id = b.revision_id
      WHERE c.claim_id IN (SELECT value FROM json_each(?)) AND ${see.sql}
      ORDER BY b.binding_id`,
    params: [JSON.stringify(claimIds), ...see.params],
  };
}

/** The claims (visible) whose current generation binds each revision, in claim order. */
export function revisionNeighboursQuery(actor: Actor, revisionIds: readonly string[]): Query {
  const see = aclFilter(actor, 'c', { useIndex: false });
  return {
    sql: `SELECT b.revision_id AS rev, c.claim_id AS claim FROM claim_binding b
      JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
      WHERE b.revision_id IN (SELECT value FROM json_each(?)) AND ${see.sql}
      ORDER BY c.created_at, c.claim_id`,
    params: [JSON.stringify(revisionIds), ...see.params],
  };
}

export function revisionSummariesQuery(actor: Actor, revisionIds: readonly string[]): Query {
  const see = aclFilter(actor, 'r', { useIndex: false });
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE r.revision_id IN (SELECT value FROM json_each(?)) AND ${see.sql}`,
    params: [JSON.stringify(revisionIds), ...see.params],
  };
}

/** A claim may bind one revision twice (two roles): it is one neighbour. */
function addOnce(list: string[], node: string): void {
  if (list[list.length - 1] !== node && !list.includes(node)) list.push(node);
}

function revisionSummaries(ctx: ServiceContext, revisionIds: readonly string[]): RevisionSummary[] {
  const rows: RevisionRow[] = [];
  for (let i = 0; i < revisionIds.length; i += 500) {
    const q = revisionSummariesQuery(ctx.actor, revisionIds.slice(i, i + 500));
    rows.push(...(ctx.db.prepare(q.sql).all(...q.params) as RevisionRow[]));
  }
  return rows.sort((a, b) => (a.revision_id < b.revision_id ? -1 : a.revision_id > b.revision_id ? 1 : 0)).map(toSummary);
}

const UNBOUND_SHOWN = 50;
/** Counting stops here: "more than 10,000" is all the view says. */
const UNBOUND_COUNTED = 10_000;

/** Evidence bound to no claim the reader may see (not already drawn): the first UNBOUND_SHOWN by id, and how many more. */
function unboundRevisions(ctx: ServiceContext, drawn: ReadonlySet<string>): { items: RevisionSummary[]; notShown: number } {
  // One pass over the reader's revisions in the ACL index (it holds the ids: no row is read),
  // less the revisions some visible claim binds now, gives both the first ones and the count;
  // their summaries are then read by key. (NOT EXISTS per revision read every revision's row.)
  const seeR = aclFilter(ctx.actor, 'r');
  const seeC = aclFilter(ctx.actor, 'c', { useIndex: false });
  const ids = ctx.db
    .prepare(
      `SELECT r.revision_id FROM evidence_revision r
       WHERE ${seeR.sql} AND r.revision_id NOT IN (
         SELECT b.revision_id FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
         WHERE ${seeC.sql})
       ORDER BY r.revision_id LIMIT ${UNBOUND_COUNTED}`,
    )
    .pluck()
    .all(...seeR.params, ...seeC.params) as string[];
  const shown = ids.slice(0, UNBOUND_SHOWN);
  return { items: revisionSummaries(ctx, shown.filter((id) => !drawn.has(revRef(id)))), notShown: ids.length - shown.length };
}
