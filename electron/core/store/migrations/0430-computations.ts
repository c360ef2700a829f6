import type { Migration } from './migration';

/**
 * Computation records (issue 14 §1, seed 004): the arithmetic a conclusion rests on, as an
 * expression over named inputs, each quoted from an exact span of an exact evidence revision, and
 * the result it gave. A computation is a fact like a binding: never edited, never deleted; verify
 * recomputes every one. Whether it still holds is derived from its inputs' evidence, not stored.
 */
export const m0430_computations: Migration = {
  version: 430,
  name: 'computations',
  up: (db) => {
    db.exec(`
      CREATE TABLE computation (
        computation_id TEXT PRIMARY KEY,
        claim_id       TEXT NOT NULL REFERENCES claim (claim_id),
        generation     INTEGER NOT NULL CHECK (generation >= 1),
        question       TEXT NOT NULL CHECK (length(question) > 0),
        expression     TEXT NOT NULL CHECK (length(expression) > 0),
        -- [{ name, revisionId, start, end, quote, quoteSha256, unit, value }], in the order given
        inputs         TEXT NOT NULL CHECK (json_valid(inputs)),
        result         TEXT NOT NULL,
        tenant         TEXT NOT NULL,
        classification TEXT NOT NULL
          CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
        created_by     TEXT NOT NULL REFERENCES actor (actor_id),
        created_at     TEXT NOT NULL
      ) STRICT;
      CREATE INDEX computation_by_claim ON computation (claim_id, created_at, computation_id);

      CREATE TABLE computation_input (
        computation_id TEXT NOT NULL REFERENCES computation (computation_id),
        revision_id    TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        PRIMARY KEY (revision_id, computation_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TRIGGER computation_immutable BEFORE UPDATE ON computation
      BEGIN
        SELECT RAISE(ABORT, 'a computation is immutable: record a new one instead');
      END;
      CREATE TRIGGER computation_no_delete BEFORE DELETE ON computation
      BEGIN
        SELECT RAISE(ABORT, 'computation rows are never deleted');
      END;
      CREATE TRIGGER computation_input_immutable BEFORE UPDATE ON computation_input
      BEGIN
        SELECT RAISE(ABORT, 'computation inputs are immutable');
      END;
      CREATE TRIGGER computation_input_no_delete BEFORE DELETE ON computation_input
      BEGIN
        SELECT RAISE(ABORT, 'computation inputs are never deleted');
      END;
    `);
  },
};
