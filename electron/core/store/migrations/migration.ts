import type { Database } from 'better-sqlite3';

/** One numbered schema step; its own module so each migration can name the type without importing the list. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: (db: Database) => void;
}
