import type { Migration } from './migration';

const STATES = `('CANDIDATE', 'VALIDATED', 'DISPUTED', 'SUPERSEDED', 'QUARANTINED', 'REVOKED')`;

export const m0020_evidence: Migration = {
  version: 20,
  name: 'evidence',
  up: (db) => {
    db.exec(`
      CREATE TABLE evidence_lineage (
        evidence_id TEXT PRIMARY KEY,
        title       TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        created_by  TEXT NOT NULL REFERENCES actor (actor_id)
      ) STRICT;

      -- One immutable revision of a lineage. Only state and state_version ever change; the
      -- trigger below refuses any other UPDATE so a correction has to be a new revision.
      CREATE TABLE evidence_revision (
        revision_id        TEXT PRIMARY KEY,
        evidence_id        TEXT NOT NULL REFERENCES evidence_lineage (evidence_id),
        revision           INTEGER NOT NULL CHECK (revision >= 1),
        supersedes         TEXT REFERENCES evidence_revision (revision_id),
        state              TEXT NOT NULL CHECK (state IN ${STATES}),
        state_version      INTEGER NOT NULL DEFAULT 0,
        kind               TEXT NOT NULL,
        content            TEXT NOT NULL,
        content_sha256     TEXT NOT NULL,
        media_type         TEXT NOT NULL,
        source_type        TEXT NOT NULL,
        source_ref         TEXT NOT NULL,
        source_version     TEXT,
        observed_at        TEXT,
        effective_from     TEXT,
        valid_until        TEXT,
        producer_type      TEXT NOT NULL CHECK (producer_type IN ('person', 'agent', 'tool')),
        producer           TEXT NOT NULL,
        tenant             TEXT NOT NULL,
        classification     TEXT NOT NULL
          CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
        trust_tier         TEXT NOT NULL,
        confidence         REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),
        independence_group TEXT,
        validation_method  TEXT,
        applies_to         TEXT NOT NULL CHECK (json_valid(applies_to)),
        created_at         TEXT NOT NULL,
        created_by         TEXT NOT NULL REFERENCES actor (actor_id),
        UNIQUE (evidence_id, revision)
      ) STRICT;

      CREATE INDEX evidence_revision_by_acl_state
        ON evidence_revision (tenant, classification, state, revision_id);
      CREATE INDEX evidence_revision_by_state ON evidence_revision (state, revision_id);
      CREATE INDEX evidence_revision_by_group ON evidence_revision (independence_group);

      CREATE TRIGGER evidence_revision_immutable
      BEFORE UPDATE OF revision_id, evidence_id, revision, supersedes, kind, content, content_sha256,
        media_type, source_type, source_ref, source_version, observed_at, effective_from,
        valid_until, producer_type, producer, tenant, classification, trust_tier, confidence,
        independence_group, validation_method, applies_to, created_at, created_by
      ON evidence_revision
      BEGIN
        SELECT RAISE(ABORT, 'evidence_revision is immutable: write a new revision instead');
      END;
      CREATE TRIGGER evidence_revision_no_delete BEFORE DELETE ON evidence_revision
      BEGIN
        SELECT RAISE(ABORT, 'evidence_revision rows are never deleted');
      END;

      CREATE TABLE evidence_transition (
        transition_id  INTEGER PRIMARY KEY,
        revision_id    TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        from_state     TEXT CHECK (from_state IS NULL OR from_state IN ${STATES}),
        to_state       TEXT NOT NULL CHECK (to_state IN ${STATES}),
        reason         TEXT NOT NULL CHECK (length(reason) > 0),
        actor          TEXT NOT NULL,
        at             TEXT NOT NULL,
        supporting_ref TEXT
      ) STRICT;
      CREATE INDEX evidence_transition_by_revision ON evidence_transition (revision_id, transition_id);
      CREATE TRIGGER evidence_transition_append_only BEFORE UPDATE ON evidence_transition
      BEGIN
        SELECT RAISE(ABORT, 'evidence_transition is append-only');
      END;
      CREATE TRIGGER evidence_transition_no_delete BEFORE DELETE ON evidence_transition
      BEGIN
        SELECT RAISE(ABORT, 'evidence_transition is append-only');
      END;
    `);
  },
};
