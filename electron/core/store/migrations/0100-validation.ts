import type { Migration } from './migration';

export const m0100_validation: Migration = {
  version: 100,
  name: 'validation checklist',
  up: (db) => {
    db.exec(`
      -- One run of the validation checklist that moved a revision to VALIDATED (DESIGN §3.1). A run
      -- that failed a check is only ever stored with a reviewer's override reason: a refused
      -- validation writes nothing. Dry runs (evidence:validate) are not stored.
      CREATE TABLE validation_run (
        run_id          INTEGER PRIMARY KEY,
        revision_id     TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        from_state      TEXT NOT NULL,
        actor           TEXT NOT NULL REFERENCES actor (actor_id),
        at              TEXT NOT NULL,
        passed          INTEGER NOT NULL CHECK (passed IN (0, 1)),
        override_reason TEXT CHECK (override_reason IS NULL OR length(override_reason) > 0),
        CHECK (passed = 1 OR override_reason IS NOT NULL)
      ) STRICT;
      CREATE INDEX validation_run_by_revision ON validation_run (revision_id, run_id);

      CREATE TABLE validation_check (
        run_id   INTEGER NOT NULL REFERENCES validation_run (run_id),
        check_id TEXT NOT NULL,
        passed   INTEGER NOT NULL CHECK (passed IN (0, 1)),
        detail   TEXT NOT NULL,
        PRIMARY KEY (run_id, check_id)
      ) STRICT;

      CREATE TRIGGER validation_run_append_only BEFORE UPDATE ON validation_run
      BEGIN
        SELECT RAISE(ABORT, 'validation_run is append-only');
      END;
      CREATE TRIGGER validation_run_no_delete BEFORE DELETE ON validation_run
      BEGIN
        SELECT RAISE(ABORT, 'validation_run is append-only');
      END;
      CREATE TRIGGER validation_check_append_only BEFORE UPDATE ON validation_check
      BEGIN
        SELECT RAISE(ABORT, 'validation_check is append-only');
      END;
      CREATE TRIGGER validation_check_no_delete BEFORE DELETE ON validation_check
      BEGIN
        SELECT RAISE(ABORT, 'validation_check is append-only');
      END;
    `);
  },
};
