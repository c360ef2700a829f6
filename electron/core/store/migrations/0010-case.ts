import type { Migration } from './migration';

export const m0010_case: Migration = {
  version: 10,
  name: 'case',
  up: (db) => {
    db.exec(`
      CREATE TABLE case_meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE actor (
        actor_id           TEXT PRIMARY KEY,
        display_name       TEXT NOT NULL,
        role               TEXT NOT NULL CHECK (role IN ('analyst', 'reviewer', 'admin')),
        tenants            TEXT NOT NULL CHECK (json_valid(tenants)),
        max_classification TEXT NOT NULL
          CHECK (max_classification IN ('public', 'internal', 'confidential', 'restricted')),
        created_at         TEXT NOT NULL
      ) STRICT;
    `);
  },
};
