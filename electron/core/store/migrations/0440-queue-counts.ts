import type { Migration } from './migration';

/**
 * The evidence queue counts its matches per state on every first page (issue 11.5). An index on
 * exactly the columns those counts filter and group by (clearance first, as every reader has one)
 * answers them without reading a single evidence row: 50,000 revisions count in milliseconds.
 */
export const m0440_queue_counts: Migration = {
  version: 440,
  name: 'evidence queue counts',
  up: (db) => {
    db.exec('CREATE INDEX evidence_revision_queue_counts ON evidence_revision (classification, tenant, kind, state)');
  },
};
