import type { ServiceContext } from '../context';
import { readTransaction, type CaseDb } from '../store/caseFile';
import type { ClaimRow } from '../store/claimRows';

/**
 * Claim derivations kept between reads (issue 11: a list of 10,000 claims cannot re-derive every
 * status per call). A derivation is a pure function of the store's rows, the reader's clearance
 * and the clock; this keeps its result until one of those moves for that claim:
 * - rows: the store logs what a write may have changed the claims of in claim_change (migration
 *   0400's triggers, so no write path can forget); each read first drops what was logged since;
 * - clearance: results are kept per clearance (tenants and highest classification), the only
 *   part of the reader that derivations look at;
 * - clock: usability turns at the validity bounds of the bound evidence (effective_from,
 *   valid_until), so a result is kept for the interval between the bounds around the instant it
 *   was derived at, and derived again outside it (a clock moved back too).
 * Only committed rows are ever kept: inside a transaction that has logged changes not yet read
 * (its own uncommitted writes, which a rollback would undo), results are derived and not kept.
 */
export type ClaimFacet = 'summary' | 'review' | 'pointsOfFailure' | 'mergeBound' | 'recount';

interface Entry {
  /** The claim's row as derived from (a write to it is logged like any other). */
  row: ClaimRow;
  facets: Partial<Record<ClaimFacet, unknown>>;
  /** Instants (ms) between which the clock does not change the derivation: [from, until). */
  from: number;
  until: number;
}

interface Memo {
  /** The last claim_change seq read. */
  seq: number;
  byClearance: Map<string, Map<string, Entry>>;
}

const memos = new WeakMap<CaseDb, Memo>();

const clearanceKey = (ctx: ServiceContext): string => `${[...ctx.actor.tenants].sort().join('\u0000')}\u0001${ctx.actor.maxClassification}`;

/**
 * Reads the change log since the memo's last seq and drops what it names. False when nothing may
 * be kept now: the caller's own transaction has logged changes, which a rollback would undo.
 */
function catchUp(db: CaseDb, memo: Memo, inCallersTransaction: boolean): boolean {
  // Two queries: SQLite answers MIN or MAX alone from the key, but both in one query by a scan.
  const first = db.prepare('SELECT MIN(seq) FROM claim_change').pluck().get() as number | null;
  const last = db.prepare('SELECT MAX(seq) FROM claim_change').pluck().get() as number | null;
  const head = last ?? 0;
  if (head === memo.seq) return true;
  // Inside a write that logged changes, they are not committed: derive without keeping.
  if (inCallersTransaction) return false;
  if (head < memo.seq || first === null || first > memo.seq + 1) {
    // Behind what the log keeps (or the log went back: another file under this connection?): start over.
    memo.byClearance.clear();
  } else {
    const everything = db.prepare('SELECT 1 FROM claim_change WHERE seq > ? AND claim_id IS NULL AND revision_id IS NULL LIMIT 1').get(memo.seq);
    if (everything) memo.byClearance.clear();
    else {
      const changed = db
        .prepare(
          `SELECT claim_id FROM claim_change WHERE seq > ? AND claim_id IS NOT NULL
           UNION SELECT b.claim_id FROM claim_change c JOIN claim_binding b ON b.revision_id = c.revision_id WHERE c.seq > ?`,
        )
        .pluck()
        .all(memo.seq, memo.seq) as string[];
      for (const entries of memo.byClearance.values()) for (const id of changed) entries.delete(id);
    }
  }
  memo.seq = head;
  return true;
}

/**
 * The instants around `now` between which no bound revision's validity bound falls: the
 * derivation holds for [from, until). Bounds that do not parse fail closed in usability for
 * every instant alike, so they bound nothing.
 */
function clockInterval(db: CaseDb, claimIds: readonly string[], now: number): Map<string, { from: number; until: number }> {
  const rows = db
    .prepare(
      `SELECT b.claim_id, r.effective_from, r.valid_until FROM claim c
       JOIN claim_binding b ON b.claim_id = c.claim_id AND b.generation = c.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE c.claim_id IN (SELECT value FROM json_each(?)) AND (r.effective_from IS NOT NULL OR r.valid_until IS NOT NULL)`,
    )
    .all(JSON.stringify(claimIds)) as { claim_id: string; effective_from: string | null; valid_until: string | null }[];
  const out = new Map(claimIds.map((id) => [id, { from: -Infinity, until: Infinity }]));
  for (const r of rows) {
    const interval = out.get(r.claim_id)!;
    for (const bound of [r.effective_from, r.valid_until]) {
      const t = bound === null ? NaN : Date.parse(bound);
      if (Number.isNaN(t)) continue;
      if (t <= now) interval.from = Math.max(interval.from, t);
      else interval.until = Math.min(interval.until, t);
    }
  }
  return out;
}

/**
 * Which claims a read covers: their ids in the order it lists them (a cheap read), and their rows
 * by id (read only for claims not already kept). The two answer for the same claims.
 */
export interface ClaimSet {
  ids: () => string[];
  rows: (ids: readonly string[]) => ClaimRow[];
}

/**
 * The claims of `set` and, for each, what `derive` derives of it (given a batch of claims, it
 * answers in the same order), reusing what was derived before for the same clearance while no
 * change logged since touches the claim and the clock stays in its interval. Rows are kept with
 * what was derived from them, so a read of 10,000 claims reads ids and the rows of changed claims
 * only. `derive` must read nothing but the store, the actor's clearance and `ctx.now()`.
 */
export function perClaim<T>(ctx: ServiceContext, facet: ClaimFacet, set: ClaimSet, derive: (claims: ClaimRow[]) => T[]): { claims: ClaimRow[]; values: T[] } {
  const inCallersTransaction = ctx.db.inTransaction;
  // One read snapshot: the log, the claim rows and the rows derived from are one state.
  const read = () => {
    const ids = set.ids();
    const rowsOf = (wanted: readonly string[]) => {
      const byId = new Map(set.rows(wanted).map((r) => [r.claim_id, r]));
      return wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    };
    let memo = memos.get(ctx.db);
    if (!memo) {
      memo = { seq: -1, byClearance: new Map() };
      memos.set(ctx.db, memo);
    }
    if (!catchUp(ctx.db, memo, inCallersTransaction)) {
      const claims = rowsOf(ids);
      return { claims, values: derive(claims) };
    }
    const key = clearanceKey(ctx);
    let entries = memo.byClearance.get(key);
    if (!entries) memo.byClearance.set(key, (entries = new Map()));
    const now = Date.parse(ctx.now());
    const fresh = (e: Entry | undefined): e is Entry => e !== undefined && e.from <= now && now < e.until;
    // Plain loops: a read of 10,000 kept claims is these passes and the ids query, nothing more.
    const stale: string[] = [];
    for (const id of ids) if (!fresh(entries.get(id))) stale.push(id);
    const missing = stale.length > 0 ? rowsOf(stale) : [];
    const intervals = missing.length > 0 ? clockInterval(ctx.db, missing.map((c) => c.claim_id), now) : new Map<string, { from: number; until: number }>();
    for (const row of missing) entries.set(row.claim_id, { row, facets: {}, ...intervals.get(row.claim_id)! });
    const kept: Entry[] = [];
    const underived: Entry[] = [];
    for (const id of ids) {
      const e = entries.get(id);
      if (!e) continue;
      kept.push(e);
      if (!(facet in e.facets)) underived.push(e);
    }
    if (underived.length > 0) {
      const derived = derive(underived.map((e) => e.row));
      underived.forEach((e, i) => (e.facets[facet] = derived[i]));
    }
    const claims = new Array<ClaimRow>(kept.length);
    const values = new Array<T>(kept.length);
    kept.forEach((e, i) => {
      claims[i] = e.row;
      values[i] = e.facets[facet] as T;
    });
    return { claims, values };
  };
  return inCallersTransaction ? read() : readTransaction(ctx.db, read);
}
