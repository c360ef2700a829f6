import type { Migration } from './migration';

export const m0110_sources: Migration = {
  version: 110,
  name: 'source documents and spans',
  up: (db) => {
    db.exec(`
      -- A source document is stored once per ACL compartment by the SHA-256 of its text. Once per
      -- compartment rather than once per file: answering "these bytes already exist" with the id
      -- of a document the caller cannot see would confirm that hidden material exists.
      CREATE TABLE source_document (
        source_id      TEXT PRIMARY KEY,
        title          TEXT NOT NULL,
        content        TEXT NOT NULL,
        content_sha256 TEXT NOT NULL,
        media_type     TEXT NOT NULL,
        tenant         TEXT NOT NULL,
        classification TEXT NOT NULL
          CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
        created_by     TEXT NOT NULL REFERENCES actor (actor_id),
        created_at     TEXT NOT NULL,
        UNIQUE (content_sha256, tenant, classification)
      ) STRICT;
      CREATE INDEX source_document_by_acl ON source_document (tenant, classification, source_id);

      CREATE TRIGGER source_document_immutable BEFORE UPDATE ON source_document
      BEGIN
        SELECT RAISE(ABORT, 'source_document is immutable: add the new text as a new document');
      END;
      CREATE TRIGGER source_document_no_delete BEFORE DELETE ON source_document
      BEGIN
        SELECT RAISE(ABORT, 'source_document rows are never deleted');
      END;

      -- The span of a source document a revision quotes. Offsets are UTF-16 code units, exactly
      -- what String.prototype.slice takes, so verification re-extracts with the same arithmetic.
      -- Part of the revision, so as immutable as the revision itself.
      CREATE TABLE evidence_span (
        revision_id  TEXT PRIMARY KEY REFERENCES evidence_revision (revision_id),
        source_id    TEXT NOT NULL REFERENCES source_document (source_id),
        span_start   INTEGER NOT NULL CHECK (span_start >= 0),
        span_end     INTEGER NOT NULL CHECK (span_end > span_start),
        quote        TEXT NOT NULL,
        quote_sha256 TEXT NOT NULL
      ) STRICT;
      CREATE INDEX evidence_span_by_source ON evidence_span (source_id, revision_id);

      CREATE TRIGGER evidence_span_immutable BEFORE UPDATE ON evidence_span
      BEGIN
        SELECT RAISE(ABORT, 'evidence_span is immutable');
      END;
      CREATE TRIGGER evidence_span_no_delete BEFORE DELETE ON evidence_span
      BEGIN
        SELECT RAISE(ABORT, 'evidence_span rows are never deleted');
      END;
    `);
  },
};
