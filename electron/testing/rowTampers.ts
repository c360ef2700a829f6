import Database from 'better-sqlite3';
import { replicatedTables, type RowImage } from '../core/store/replicaRows';
import { NOT_A_FACT } from './notAFact';

/**
 * Test helper (not a test): row images that say what no receipt says, read from a case file with
 * rows in every table (fullCase.ts): for each fact column of each replicated table, its first row
 * with that column changed; for each table, its first row deleted; for each rowid table, its first
 * row again under a new rowid (its text columns changed, so no unique key refuses it).
 */
export function rowTampers(path: string): { what: string; image: RowImage }[] {
  const db = new Database(path, { readonly: true });
  try {
    const out: { what: string; image: RowImage }[] = [];
    for (const t of replicatedTables(db)) {
      if (skipped(t.name)) continue;
      const keyCols = t.key.map((k, i) => `"${k}" AS "k${i}"`).join(', ');
      const order = t.key.map((k) => `"${k}"`).join(', ');
      const keyOf = (row: Record<string, unknown>) => t.key.map((_, i) => row[`k${i}`] as string | number);
      const columnsOf = (row: Record<string, unknown>) => Object.fromEntries(t.columns.map((c) => [c, row[c]]));
      const types = new Map((db.prepare('SELECT name, type FROM pragma_table_info(?)').all(t.name) as { name: string; type: string }[]).map((c) => [c.name, c.type]));
      for (const column of t.columns) {
        if (skipped(t.name, column)) continue;
        const row = db.prepare(`SELECT ${keyCols}, * FROM "${t.name}" ORDER BY ("${column}" IS NULL), ${order} LIMIT 1`).get() as Record<string, unknown>;
        const r = columnsOf(row);
        out.push({ what: `${t.name}.${column}`, image: { t: t.name, k: keyOf(row), r: { ...r, [column]: another(r[column], types.get(column)) } } });
      }
      const first = db.prepare(`SELECT ${keyCols}, * FROM "${t.name}" ORDER BY ${order} LIMIT 1`).get() as Record<string, unknown>;
      out.push({ what: `${t.name}: a row deleted`, image: { t: t.name, k: keyOf(first), r: null } });
      if (t.key[0] !== 'rowid') continue;
      const rowid = (db.prepare(`SELECT MAX(rowid) FROM "${t.name}"`).pluck().get() as number) + 1000;
      // An INTEGER PRIMARY KEY is the rowid under another name.
      const alias = db.prepare(`SELECT name FROM pragma_table_info(?) WHERE pk = 1 AND type = 'INTEGER'`).pluck().get(t.name) as string | undefined;
      const r = Object.fromEntries(
        t.columns.map((c) => [c, c === alias ? rowid : typeof first[c] === 'string' && !/_at$|^at$/.test(c) ? `${String(first[c])}-forged` : first[c]]),
      );
      out.push({ what: `${t.name}: a row added`, image: { t: t.name, k: [rowid], r } });
    }
    return out;
  } finally {
    db.close();
  }
}

const skipped = (table: string, column?: string) => NOT_A_FACT[table] !== undefined || (column !== undefined && NOT_A_FACT[`${table}.${column}`] !== undefined);

/** A value unlike `v`, of its kind, and unlike any other row's (a unique key takes it). */
const another = (v: unknown, type: string | undefined): unknown => (v === null ? (type === 'TEXT' ? 'x' : 7) : typeof v === 'number' ? (Number.isInteger(v) ? v + 100_000 : v / 2 + 0.1) : `${String(v)}x`);
