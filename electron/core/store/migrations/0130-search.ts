import type { Migration } from './migration';

export const m0130_search: Migration = {
  version: 130,
  name: 'full-text search',
  up: (db) => {
    db.exec(`
      -- FTS5 over evidence (lineage title + revision content) and claim statements, as
      -- external-content tables so the text is not stored twice. The FTS rowid comes from a key
      -- table with an INTEGER PRIMARY KEY, not from the implicit rowid of evidence_revision or
      -- claim: VACUUM may renumber implicit rowids, which would silently re-point every hit.
      CREATE TABLE evidence_search_key (
        rid         INTEGER PRIMARY KEY,
        revision_id TEXT NOT NULL UNIQUE REFERENCES evidence_revision (revision_id)
      ) STRICT;
      CREATE VIEW evidence_search_doc AS
        SELECT k.rid AS rid, l.title AS title, r.content AS content
        FROM evidence_search_key k
        JOIN evidence_revision r ON r.revision_id = k.revision_id
        JOIN evidence_lineage l ON l.evidence_id = r.evidence_id;
      CREATE VIRTUAL TABLE evidence_fts USING fts5(
        title, content,
        content = 'evidence_search_doc', content_rowid = 'rid',
        tokenize = 'unicode61 remove_diacritics 2'
      );

      CREATE TABLE claim_search_key (
        rid      INTEGER PRIMARY KEY,
        claim_id TEXT NOT NULL UNIQUE REFERENCES claim (claim_id)
      ) STRICT;
      CREATE VIEW claim_search_doc AS
        SELECT k.rid AS rid, c.statement AS statement
        FROM claim_search_key k JOIN claim c ON c.claim_id = k.claim_id;
      CREATE VIRTUAL TABLE claim_fts USING fts5(
        statement,
        content = 'claim_search_doc', content_rowid = 'rid',
        tokenize = 'unicode61 remove_diacritics 2'
      );

      -- Triggers keep the index in the same transaction as every write, whichever code path (or
      -- bench, or import) inserts. Revisions and lineage titles never change after insert.
      CREATE TRIGGER evidence_revision_search_insert AFTER INSERT ON evidence_revision
      BEGIN
        INSERT INTO evidence_search_key (revision_id) VALUES (NEW.revision_id);
        INSERT INTO evidence_fts (rowid, title, content)
          SELECT k.rid, l.title, NEW.content
          FROM evidence_search_key k, evidence_lineage l
          WHERE k.revision_id = NEW.revision_id AND l.evidence_id = NEW.evidence_id;
      END;
      CREATE TRIGGER claim_search_insert AFTER INSERT ON claim
      BEGIN
        INSERT INTO claim_search_key (claim_id) VALUES (NEW.claim_id);
        INSERT INTO claim_fts (rowid, statement)
          SELECT rid, NEW.statement FROM claim_search_key WHERE claim_id = NEW.claim_id;
      END;
      -- Claims have no immutability trigger; should a statement ever be edited, the index follows.
      CREATE TRIGGER claim_search_update AFTER UPDATE OF statement ON claim
      BEGIN
        INSERT INTO claim_fts (claim_fts, rowid, statement)
          SELECT 'delete', rid, OLD.statement FROM claim_search_key WHERE claim_id = OLD.claim_id;
        INSERT INTO claim_fts (rowid, statement)
          SELECT rid, NEW.statement FROM claim_search_key WHERE claim_id = NEW.claim_id;
      END;

      -- Existing case files: index what is already there.
      INSERT INTO evidence_search_key (revision_id) SELECT revision_id FROM evidence_revision ORDER BY rowid;
      INSERT INTO claim_search_key (claim_id) SELECT claim_id FROM claim ORDER BY rowid;
      INSERT INTO evidence_fts (evidence_fts) VALUES ('rebuild');
      INSERT INTO claim_fts (claim_fts) VALUES ('rebuild');
    `);
  },
};
