import type { Migration } from './migration';

export const m0040_audit: Migration = {
  version: 40,
  name: 'audit',
  up: (db) => {
    db.exec(`
      -- Receipted audit facts: a hash chain, never edited. hash = SHA-256(prev_hash || body).
      CREATE TABLE audit_receipt (
        seq              INTEGER PRIMARY KEY,
        at               TEXT NOT NULL,
        actor            TEXT NOT NULL,
        action           TEXT NOT NULL,
        targets          TEXT NOT NULL CHECK (json_valid(targets)),
        body             TEXT NOT NULL CHECK (json_valid(body)),
        pre_state_fp     TEXT,
        post_state_fp    TEXT,
        artifact_digests TEXT NOT NULL CHECK (json_valid(artifact_digests)),
        prev_hash        TEXT NOT NULL,
        hash             TEXT NOT NULL UNIQUE
      ) STRICT;
      CREATE INDEX audit_receipt_by_action ON audit_receipt (action, seq);

      CREATE TRIGGER audit_receipt_no_update BEFORE UPDATE ON audit_receipt
      BEGIN
        SELECT RAISE(ABORT, 'audit_receipt is append-only');
      END;
      CREATE TRIGGER audit_receipt_no_delete BEFORE DELETE ON audit_receipt
      BEGIN
        SELECT RAISE(ABORT, 'audit_receipt is append-only');
      END;
    `);
  },
};
