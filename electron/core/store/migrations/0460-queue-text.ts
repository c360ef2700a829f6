import type { Migration } from './migration';

/**
 * The evidence queue's words filter (issue 11.5) matches any part of a revision's id, title, source
 * type or producer, which no B-tree index answers: at 50,000 revisions it read every row and title
 * (~50 ms a page). A trigram index of those four fields finds the candidates instead; the queue
 * still applies its own LIKE to them, so the index only narrows what is read and never decides a
 * match. Filled from the search key table (migration 0130), whose row is written in the same
 * statement as the revision; revisions and lineage titles never change after insert.
 */
export const m0460_queue_text: Migration = {
  version: 460,
  name: 'evidence queue words',
  up: (db) => {
    db.exec(`
      -- External content, as the other full-text indexes (migration 0130): the text is not stored twice.
      CREATE VIEW evidence_queue_doc AS
        SELECT k.rid AS rid, r.revision_id AS revision_id, l.title AS title, r.source_type AS source_type, r.producer AS producer
        FROM evidence_search_key k
        JOIN evidence_revision r ON r.revision_id = k.revision_id
        JOIN evidence_lineage l ON l.evidence_id = r.evidence_id;
      CREATE VIRTUAL TABLE evidence_queue_fts USING fts5(
        revision_id, title, source_type, producer,
        content = 'evidence_queue_doc', content_rowid = 'rid',
        tokenize = 'trigram'
      );
      CREATE TRIGGER evidence_queue_text_insert AFTER INSERT ON evidence_search_key
      BEGIN
        INSERT INTO evidence_queue_fts (rowid, revision_id, title, source_type, producer)
          SELECT NEW.rid, r.revision_id, l.title, r.source_type, r.producer
          FROM evidence_revision r JOIN evidence_lineage l ON l.evidence_id = r.evidence_id
          WHERE r.revision_id = NEW.revision_id;
      END;
      -- Existing case files: index what is already there.
      INSERT INTO evidence_queue_fts (evidence_queue_fts) VALUES ('rebuild');
    `);
  },
};
