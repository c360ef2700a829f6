import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

/**
 * A digest of every row of every table (or the named ones), read through a separate read-only
 * connection. Tests compare it before and after a refused write to prove nothing was written.
 */
export function tableDigest(path: string, tables?: readonly string[]): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const names =
      tables ??
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    const hash = createHash('sha256');
    for (const name of names) {
      hash.update(`\u0000table:${name}\u0000`);
      const quoted = `"${name.replace(/"/g, '""')}"`;
      let rows: string[];
      try {
        rows = db.prepare(`SELECT * FROM ${quoted} ORDER BY rowid`).all().map((r) => JSON.stringify(r));
      } catch {
        // WITHOUT ROWID tables (FTS5 shadow tables) have no rowid: order by content instead.
        rows = db.prepare(`SELECT * FROM ${quoted}`).all().map((r) => JSON.stringify(r)).sort();
      }
      for (const row of rows) hash.update(row);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
