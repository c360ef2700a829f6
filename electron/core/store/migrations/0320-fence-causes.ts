import type { Migration } from './migration';

/**
 * Quarantine and dispute fence their dependents as revocation does (DESIGN §3.5): the fence's
 * cause CHECK widens to every state that takes a revision out of normal flows. SQLite cannot
 * alter a CHECK, so the table is rebuilt the documented way (new table, copy, drop, rename; the
 * runner has foreign keys off and checks them before the commit). Rows are copied unchanged.
 */
export const m0320_fence_causes: Migration = {
  version: 320,
  name: 'quarantine and dispute fences',
  up: (db) => {
    db.exec(`
      CREATE TABLE revocation_fence_next (
        fence_id          INTEGER PRIMARY KEY,
        revision_id       TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        cause             TEXT NOT NULL CHECK (cause IN ('REVOKED', 'SUPERSEDED', 'QUARANTINED', 'DISPUTED', 'DERIVED')),
        from_state        TEXT,
        root_fence_id     INTEGER REFERENCES revocation_fence (fence_id),
        parent_fence_id   INTEGER REFERENCES revocation_fence (fence_id),
        reason            TEXT NOT NULL,
        supporting_ref    TEXT,
        actor             TEXT NOT NULL,
        fenced_at         TEXT NOT NULL,
        fenced_at_ms      INTEGER NOT NULL,
        binding_watermark INTEGER NOT NULL,
        CHECK ((cause = 'DERIVED') = (root_fence_id IS NOT NULL)),
        CHECK ((cause = 'DERIVED') = (parent_fence_id IS NOT NULL))
      ) STRICT;
      INSERT INTO revocation_fence_next SELECT * FROM revocation_fence;
      DROP TABLE revocation_fence;
      ALTER TABLE revocation_fence_next RENAME TO revocation_fence;
      CREATE INDEX revocation_fence_by_revision ON revocation_fence (revision_id, fence_id);
      CREATE INDEX revocation_fence_by_root ON revocation_fence (root_fence_id, revision_id);
      CREATE TRIGGER revocation_fence_append_only BEFORE UPDATE ON revocation_fence
      BEGIN
        SELECT RAISE(ABORT, 'revocation_fence is append-only');
      END;
      CREATE TRIGGER revocation_fence_no_delete BEFORE DELETE ON revocation_fence
      BEGIN
        SELECT RAISE(ABORT, 'revocation_fence is append-only');
      END;
    `);
  },
};
