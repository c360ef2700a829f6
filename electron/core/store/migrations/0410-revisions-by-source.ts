import type { Migration } from './migration';

/**
 * The graph pivots from an evidence item to everything reported by the same source (issue 11.2):
 * revisions are found by their source reference with one seek, as they already are by
 * independence group and content hash.
 */
export const m0410_revisions_by_source: Migration = {
  version: 410,
  name: 'revisions by source reference',
  up: (db) => {
    db.exec('CREATE INDEX evidence_revision_by_source ON evidence_revision (source_ref)');
  },
};
