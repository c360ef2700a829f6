import type Database from 'better-sqlite3';

/** A case file's connection (caseFile.ts's CaseDb, named here so the store's opening code can call this module). */
type CaseDb = Database.Database;

/**
 * Row images for replicas (issue 15): what a team server carries besides receipts, so another
 * replica can hold the same rows. Receipts say what each write did and verify holds every row to
 * them (stateCoverage.test.ts); the images are only transport. A replica that applies them runs
 * verify before it commits (team/replica.ts), so an image that says anything its receipts do not
 * is refused with the whole pull.
 *
 * Not replicated: the receipts themselves (sent as receipts), the replica's own bookkeeping, and
 * what this file's triggers derive from the replicated rows (full-text indexes, search keys, the
 * change log, revision counts): applying the rows makes those triggers write them here too.
 */
const DERIVED_BY_TRIGGERS = new Set(['claim_search_key', 'evidence_search_key', 'claim_change', 'revision_count', 'receipt_target']);
const NOT_REPLICATED = new Set(['audit_receipt', ...DERIVED_BY_TRIGGERS]);

interface TableShape {
  name: string;
  /** The columns that name a row: ['rowid'], or a rowid-less table's primary key. */
  key: string[];
  columns: string[];
}

// Stryker disable next-line StringLiteral: equivalent here; no table or column of a case file has a double quote in its name
const doubledQuotes = (name: string) => name.replace(/"/g, '""');
const quote = (name: string) => `"${doubledQuotes(name)}"`;

/** The tables a replica carries, in the order they were created (parents before children). */
export function replicatedTables(db: CaseDb): TableShape[] {
  const tables = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
    .all() as { name: string; sql: string }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  return tables
    .filter((t) => !NOT_REPLICATED.has(t.name) && !t.name.startsWith('replica_') && !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)))
    .map((t) => {
      const info = db.prepare('SELECT name, pk FROM pragma_table_info(?)').all(t.name) as { name: string; pk: number }[];
      const withoutRowid = /WITHOUT\s+ROWID/i.test(t.sql);
      const key = withoutRowid ? info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name) : ['rowid'];
      return { name: t.name, key, columns: info.map((c) => c.name) };
    });
}

const CAPTURING = 'capturing';

export const isCapturing = (db: CaseDb): boolean => db.prepare('SELECT 1 FROM replica_state WHERE key = ?').get(CAPTURING) !== undefined;

/**
 * Makes every write to a replicated table record its row in replica_dirty, from now on. Idempotent;
 * run again after a migration (ensureCapture) so a table added since is captured too.
 */
export function startCapture(db: CaseDb): void {
  db.prepare(`INSERT INTO replica_state (key, value) VALUES (?, '1') ON CONFLICT (key) DO NOTHING`).run(CAPTURING);
  ensureCapture(db);
}

/** The capture triggers of every replicated table, on a case that captures; nothing otherwise. */
export function ensureCapture(db: CaseDb): void {
  if (!isCapturing(db)) return;
  for (const t of replicatedTables(db)) {
    const keyOf = (row: 'NEW' | 'OLD') => `json_array(${t.key.map((k) => `${row}.${quote(k)}`).join(', ')})`;
    const record = (row: 'NEW' | 'OLD') => `INSERT INTO replica_dirty (tbl, key) VALUES ('${t.name}', ${keyOf(row)});`;
    db.exec(`
      CREATE TRIGGER IF NOT EXISTS ${quote(`replica_${t.name}_insert`)} AFTER INSERT ON ${quote(t.name)} BEGIN ${record('NEW')} END;
      CREATE TRIGGER IF NOT EXISTS ${quote(`replica_${t.name}_update`)} AFTER UPDATE ON ${quote(t.name)} BEGIN ${record('OLD')} ${record('NEW')} END;
      CREATE TRIGGER IF NOT EXISTS ${quote(`replica_${t.name}_delete`)} AFTER DELETE ON ${quote(t.name)} BEGIN ${record('OLD')} END;
    `);
  }
}

/** The last seq this replica and the server agree on: after a push or a pull. Later receipts of this file are its own, not yet pushed. */
export function noteServerSeq(db: CaseDb, seq: number): void {
  setState(db, 'server_seq', String(seq));
  setState(db, 'synced_at', new Date().toISOString());
}

const setState = (db: CaseDb, key: string, value: string) =>
  db.prepare('INSERT INTO replica_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
const getState = (db: CaseDb, key: string): string | null => (db.prepare('SELECT value FROM replica_state WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;

/** When this replica last agreed with the server (its last push or pull), wall-clock time. */
export const lastSynced = (db: CaseDb): string | null => getState(db, 'synced_at');

/** The team server this replica syncs with (postgres://host:port/database; no user, no password). */
export const replicaServer = (db: CaseDb): string | null => getState(db, 'server');

export function noteServer(db: CaseDb, server: string): void {
  setState(db, 'server', server);
}

export const serverSeq = (db: CaseDb): number => Number(getState(db, 'server_seq') ?? 0);

const lastSeq = (db: CaseDb): number => (db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM audit_receipt').get() as { n: number }).n;

/** A replica's head before an action, to tell afterwards which receipts the action wrote (null: not a replica). */
export const pendingMark = (db: CaseDb): number | null => (isCapturing(db) ? lastSeq(db) : null);

const holdsSecret = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.entries(value).some(([k, v]) => /passphrase/i.test(k) || holdsSecret(v));

/**
 * Records the action that wrote the receipts after `mark` as provisional, with its request, so it
 * can be taken again on a newer head (reconcile.ts). A request holding a passphrase is not kept:
 * that action is shown to its author to redo if it ever has to be.
 */
export function recordPending(db: CaseDb, mark: number, action: { actor: string; channel: string; request: unknown }): void {
  const last = lastSeq(db);
  if (last <= mark) return;
  db.prepare('INSERT INTO replica_pending (first_seq, last_seq, actor, channel, request) VALUES (?, ?, ?, ?, ?)').run(
    mark + 1,
    last,
    action.actor,
    action.channel,
    holdsSecret(action.request) ? null : JSON.stringify(action.request),
  );
}

/** Actions whose receipts the server now holds are no longer provisional. */
export function forgetPending(db: CaseDb, throughSeq: number): void {
  db.prepare('DELETE FROM replica_pending WHERE last_seq <= ?').run(throughSeq);
}

/** One row as a replica sends it: its table, its key, and its columns now (null: it was deleted). */
export interface RowImage {
  t: string;
  k: (string | number)[];
  r: Record<string, unknown> | null;
}

/** Statements of one pass over many rows, each prepared once. */
function preparedOnce(db: CaseDb): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    // Stryker disable next-line ConditionalExpression: equivalent; preparing again gives the same statement, the cache only spares the work
    if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
    return stmt;
  };
}

const whereKey = (t: TableShape) => t.key.map((k) => `${quote(k)} = ?`).join(' AND ');

/** Rows read per statement when a table is listed whole: each page is read at once, so no statement stays open between pages. */
const PAGE_ROWS = 2_000;

/**
 * Every row of every replicated table, one at a time: what a replica that has nothing yet needs.
 * Each table is read in pages by its key, so a case of millions of rows is never held at once.
 */
export function* everyImage(db: CaseDb): Generator<RowImage> {
  for (const t of replicatedTables(db)) {
    const order = t.key.map(quote).join(', ');
    // Each row comes as its key's values, then its columns': arrays, not objects, as it is read fast.
    const select = `SELECT ${[...t.key, ...t.columns].map(quote).join(', ')} FROM ${quote(t.name)}`;
    const first = db.prepare(`${select} ORDER BY ${order} LIMIT ${PAGE_ROWS}`).raw();
    const after = db.prepare(`${select} WHERE (${order}) > (${t.key.map(() => '?').join(', ')}) ORDER BY ${order} LIMIT ${PAGE_ROWS}`).raw();
    const width = t.key.length;
    let page = first.all() as unknown[][];
    while (page.length > 0) {
      let k: (string | number)[] = [];
      for (const row of page) {
        k = row.slice(0, width) as (string | number)[];
        const r: Record<string, unknown> = {};
        for (let c = 0; c < t.columns.length; c++) r[t.columns[c]!] = row[width + c];
        yield { t: t.name, k, r };
      }
      page = page.length < PAGE_ROWS ? [] : (after.all(...k) as unknown[][]);
    }
  }
}

const pick = (row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> => Object.fromEntries(columns.map((c) => [c, row[c]]));

/**
 * The rows written since the last push, as they are now, in the order they were first written
 * (produced one at a time, as they are sent); and the last change they cover.
 */
export function dirtyImages(db: CaseDb): { images: Iterable<RowImage>; throughChange: number } {
  const dirty = db.prepare('SELECT tbl, key, MIN(change_id) AS first, MAX(change_id) AS last FROM replica_dirty GROUP BY tbl, key ORDER BY first').all() as {
    tbl: string;
    key: string;
    first: number;
    last: number;
  }[];
  const shapes = new Map(replicatedTables(db).map((t) => [t.name, t]));
  const throughChange = dirty.reduce((most, d) => Math.max(most, d.last), 0);
  function* images(): Generator<RowImage> {
    const statement = preparedOnce(db);
    for (const d of dirty) {
      const t = shapes.get(d.tbl);
      if (!t) continue;
      const k = JSON.parse(d.key) as (string | number)[];
      const row = statement(`SELECT * FROM ${quote(t.name)} WHERE ${whereKey(t)}`).get(...k) as Record<string, unknown> | undefined;
      yield { t: t.name, k, r: row ? pick(row, t.columns) : null };
    }
  }
  return { images: images(), throughChange };
}

/** About how many characters of NDJSON a part of row images holds (a row longer than that is a part of its own). */
export const PART_CHARS = 8 * 1024 * 1024;

/** Row images as the NDJSON parts a team server keeps (teamStore.ts TeamRows), packed as they come. */
export function* ndjsonParts(images: Iterable<RowImage>, partChars = PART_CHARS): Generator<string> {
  let lines: string[] = [];
  let size = 0;
  for (const image of images) {
    const line = JSON.stringify(image);
    if (lines.length > 0 && size + line.length > partChars) {
      yield lines.join('\n');
      lines = [];
      size = 0;
    }
    lines.push(line);
    size += line.length + 1;
  }
  if (lines.length > 0) yield lines.join('\n');
}

/** The row images of one NDJSON part; `where` names the part in the error when a line is not a row image. */
export function parseImagePart(text: string, where: string): RowImage[] {
  const images: RowImage[] = [];
  for (const [n, line] of text.split('\n').entries()) {
    if (line === '') continue;
    let image: unknown;
    try {
      image = JSON.parse(line);
    } catch {
      throw new Error(`line ${n + 1} of ${where} is not JSON`);
    }
    images.push(image as RowImage);
  }
  return images;
}

/** Forgets the captured writes a push has sent (those up to `throughChange`). */
export function forgetDirty(db: CaseDb, throughChange: number): void {
  db.prepare('DELETE FROM replica_dirty WHERE change_id <= ?').run(throughChange);
}

/**
 * Applies row images inside the caller's transaction: a row that is absent is inserted (with its
 * rowid), one that differs gets only its changed columns (so this file's immutability triggers
 * see exactly the change the sender's saw), one that was deleted is deleted. Foreign keys are
 * checked at commit, once every image is in. What the capture triggers record meanwhile is the
 * sender's, not this replica's, and is forgotten.
 */
export function applyImages(db: CaseDb, images: readonly RowImage[]): void {
  if (!db.inTransaction) throw new Error('applyImages must run inside the pull transaction');
  db.pragma('defer_foreign_keys = ON');
  const shapes = new Map(replicatedTables(db).map((t) => [t.name, t]));
  const before = (db.prepare('SELECT COALESCE(MAX(change_id), 0) AS n FROM replica_dirty').get() as { n: number }).n;
  const statement = preparedOnce(db);
  for (const image of images) {
    const t = shapes.get(image.t);
    if (!t) throw new Error(`a row image names table ${image.t}, which this case file does not replicate`);
    if (image.k.length !== t.key.length) throw new Error(`a row image of ${t.name} has a key of ${image.k.length} values, not ${t.key.length}`);
    if (image.r === null) {
      // A row already gone is deleted by nobody: the statement then changes nothing.
      statement(`DELETE FROM ${quote(t.name)} WHERE ${whereKey(t)}`).run(...image.k);
      continue;
    }
    const present = statement(`SELECT * FROM ${quote(t.name)} WHERE ${whereKey(t)}`).get(...image.k) as Record<string, unknown> | undefined;
    const unknown = Object.keys(image.r).filter((c) => !t.columns.includes(c));
    if (unknown.length > 0) throw new Error(`a row image of ${t.name} has columns this case file does not: ${unknown.join(', ')}`);
    if (!present) {
      const cols = t.key[0] === 'rowid' ? ['rowid', ...Object.keys(image.r)] : Object.keys(image.r);
      const values = t.key[0] === 'rowid' ? [image.k[0], ...Object.values(image.r)] : Object.values(image.r);
      statement(`INSERT INTO ${quote(t.name)} (${cols.map(quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
      continue;
    }
    const changed = Object.keys(image.r).filter((c) => present[c] !== image.r![c]);
    if (changed.length === 0) continue;
    statement(`UPDATE ${quote(t.name)} SET ${changed.map((c) => `${quote(c)} = ?`).join(', ')} WHERE ${whereKey(t)}`).run(...changed.map((c) => image.r![c]), ...image.k);
  }
  db.prepare('DELETE FROM replica_dirty WHERE change_id > ?').run(before);
}
