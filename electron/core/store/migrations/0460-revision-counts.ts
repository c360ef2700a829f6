import type { Migration } from './migration';

/**
 * The dashboard's validation rate and provenance completeness count every revision by compartment
 * and state, and how many of them were ever validated (issue 11: every read under 50 ms on 50,000
 * revisions). Counting the table per read cost 13 ms, and more the more revisions were validated
 * (one lookup into the validation runs per revision). The store keeps the counts itself: triggers
 * on every write that can move one (a revision added or changing state, a revision's first
 * validation run) update them in the writing transaction, so no write path can forget to.
 * Revisions and validation runs are never deleted (their own triggers refuse it). The counts are
 * a cache of the rows, not facts: verify holds the rows, and a test recounts them after every
 * kind of write.
 */
const bucket = (r: 'NEW' | 'OLD') => `tenant = ${r}.tenant AND classification = ${r}.classification AND state = ${r}.state`;
const validated = (r: 'NEW' | 'OLD') => `EXISTS (SELECT 1 FROM validation_run v WHERE v.revision_id = ${r}.revision_id)`;
const add = `INSERT INTO revision_count (tenant, classification, state, n, validated)
    VALUES (NEW.tenant, NEW.classification, NEW.state, 1, ${validated('NEW')})
    ON CONFLICT (tenant, classification, state) DO UPDATE SET n = n + 1, validated = validated + excluded.validated;`;

export const m0460_revision_counts: Migration = {
  version: 460,
  name: 'revision counts per compartment and state',
  up: (db) => {
    db.exec(`
      CREATE TABLE revision_count (
        tenant         TEXT NOT NULL,
        classification TEXT NOT NULL,
        state          TEXT NOT NULL,
        n              INTEGER NOT NULL CHECK (n >= 0),
        -- Revisions with at least one validation run (a reviewer override included).
        validated      INTEGER NOT NULL CHECK (validated BETWEEN 0 AND n),
        PRIMARY KEY (tenant, classification, state)
      ) STRICT, WITHOUT ROWID;

      INSERT INTO revision_count (tenant, classification, state, n, validated)
        SELECT r.tenant, r.classification, r.state, COUNT(*), SUM(r.revision_id IN (SELECT revision_id FROM validation_run))
        FROM evidence_revision r GROUP BY 1, 2, 3;

      CREATE TRIGGER revision_count_on_insert AFTER INSERT ON evidence_revision BEGIN
        ${add}
      END;

      CREATE TRIGGER revision_count_on_move AFTER UPDATE OF tenant, classification, state ON evidence_revision
        WHEN OLD.tenant IS NOT NEW.tenant OR OLD.classification IS NOT NEW.classification OR OLD.state IS NOT NEW.state BEGIN
        UPDATE revision_count SET n = n - 1, validated = validated - ${validated('OLD')} WHERE ${bucket('OLD')};
        ${add}
      END;

      -- Only a revision's first run makes it validated.
      CREATE TRIGGER revision_count_on_validation AFTER INSERT ON validation_run
        WHEN NOT EXISTS (SELECT 1 FROM validation_run v WHERE v.revision_id = NEW.revision_id AND v.run_id <> NEW.run_id) BEGIN
        UPDATE revision_count SET validated = validated + 1
          WHERE (tenant, classification, state) = (SELECT tenant, classification, state FROM evidence_revision WHERE revision_id = NEW.revision_id);
      END;
    `);
  },
};
