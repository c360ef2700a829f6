import type { Migration } from './migration';

/**
 * The Evidence queue's words filter ("contains", over the revision id, title, source type and
 * producer) read every visible revision and its title: ~50 ms for the page and its per-state
 * counts on 50,000 revisions (issue 11: every page read under 50 ms). The store keeps those four
 * fields of each revision as one label in a trigram index, with what the counts group and filter
 * by (state, tenant, classification, kind), so a filter reads only the revisions it matches.
 *
 * The label is the fields joined by U+001F and folded to lower case for ASCII only (SQLite's
 * lower()), and the index is case-sensitive: a phrase of the needle folded the same way matches
 * exactly the revisions whose fields contain it as LIKE did (LIKE folds ASCII only too). A needle
 * shorter than three characters (a trigram's length) or holding U+001F is still matched with LIKE
 * (evidenceReads.ts).
 *
 * Kept by triggers in the writing transaction: the revision's insert (the search key's trigger
 * is replaced by one that writes both, so the key exists when the label is written) and a move of
 * its state or compartment. Revisions and lineage titles never change otherwise. A cache of the
 * rows, not a fact: verify holds the rows (its name ends in _fts, as the other indexes').
 */
const label = (r: string, l: string) =>
  `lower(${r}.revision_id || char(31) || ${l}.title || char(31) || ${r}.source_type || char(31) || COALESCE(${r}.producer, ''))`;

export const m0470_evidence_labels: Migration = {
  version: 470,
  name: 'evidence labels for the words filter',
  up: (db) => {
    db.exec(`
      CREATE VIRTUAL TABLE evidence_label_fts USING fts5(
        label, state UNINDEXED, tenant UNINDEXED, classification UNINDEXED, kind UNINDEXED,
        tokenize = 'trigram case_sensitive 1'
      );
      INSERT INTO evidence_label_fts (rowid, label, state, tenant, classification, kind)
        SELECT k.rid, ${label('r', 'l')}, r.state, r.tenant, r.classification, r.kind
        FROM evidence_search_key k
        JOIN evidence_revision r ON r.revision_id = k.revision_id
        JOIN evidence_lineage l ON l.evidence_id = r.evidence_id;

      DROP TRIGGER evidence_revision_search_insert;
      CREATE TRIGGER evidence_revision_search_insert AFTER INSERT ON evidence_revision
      BEGIN
        INSERT INTO evidence_search_key (revision_id) VALUES (NEW.revision_id);
        INSERT INTO evidence_fts (rowid, title, content)
          SELECT k.rid, l.title, NEW.content
          FROM evidence_search_key k, evidence_lineage l
          WHERE k.revision_id = NEW.revision_id AND l.evidence_id = NEW.evidence_id;
        INSERT INTO evidence_label_fts (rowid, label, state, tenant, classification, kind)
          SELECT k.rid, ${label('NEW', 'l')}, NEW.state, NEW.tenant, NEW.classification, NEW.kind
          FROM evidence_search_key k, evidence_lineage l
          WHERE k.revision_id = NEW.revision_id AND l.evidence_id = NEW.evidence_id;
      END;

      CREATE TRIGGER evidence_label_on_move AFTER UPDATE OF state, tenant, classification ON evidence_revision
        WHEN OLD.state IS NOT NEW.state OR OLD.tenant IS NOT NEW.tenant OR OLD.classification IS NOT NEW.classification
      BEGIN
        UPDATE evidence_label_fts SET state = NEW.state, tenant = NEW.tenant, classification = NEW.classification
          WHERE rowid = (SELECT rid FROM evidence_search_key WHERE revision_id = NEW.revision_id);
      END;
    `);
  },
};
