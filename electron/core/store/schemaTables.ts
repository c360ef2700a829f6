import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

const byVersion = new Map<number, ReadonlySet<string>>();

/**
 * The tables a case file at schema `version` has: what the migrations up to it create, found by
 * running them on an empty in-memory database (once per version), so the list never drifts from
 * the migrations.
 */
export function schemaTablesAt(version: number): ReadonlySet<string> {
  let tables = byVersion.get(version);
  if (!tables) {
    const db = new Database(':memory:');
    try {
      db.pragma('foreign_keys = OFF');
      for (const m of MIGRATIONS) if (m.version <= version) m.up(db);
      tables = new Set(tableNames(db));
    } finally {
      db.close();
    }
    byVersion.set(version, tables);
  }
  return tables;
}

/** The names of the tables `db` has now. */
export function tableNames(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
}
