import type { Migration } from './migration';

/**
 * The timeline (issue 11.4) reads evidence by observed time, lifecycle changes and decisions by
 * when they happened, a page at a time: each in the order of its time, from an index.
 */
export const m0420_timeline: Migration = {
  version: 420,
  name: 'timeline order',
  up: (db) => {
    db.exec(`
      CREATE INDEX evidence_revision_by_observed ON evidence_revision (observed_at, revision_id);
      CREATE INDEX evidence_transition_by_time ON evidence_transition (at, transition_id);
      CREATE INDEX decision_by_proposed ON decision (proposed_at, decision_id);
      CREATE INDEX decision_by_decided ON decision (decided_at, decision_id) WHERE decided_at IS NOT NULL;
    `);
  },
};
