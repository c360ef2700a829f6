import type { Migration } from './migration';

export const m0120_provenance: Migration = {
  version: 120,
  name: 'provenance',
  up: (db) => {
    db.exec(`
      -- W3C PROV nodes (DESIGN §3.2). Entities that stand for stored evidence revisions or source
      -- documents reference them (and copy their tenant and classification, which never change);
      -- every other node carries the compartment it was recorded in. Trace reads filter on it
      -- exactly like evidence, so a hidden node is never returned.
      CREATE TABLE prov_node (
        node_id        TEXT PRIMARY KEY,
        kind           TEXT NOT NULL CHECK (kind IN ('entity', 'activity', 'agent')),
        subtype        TEXT NOT NULL CHECK (length(subtype) > 0),
        revision_id    TEXT UNIQUE REFERENCES evidence_revision (revision_id),
        source_id      TEXT UNIQUE REFERENCES source_document (source_id),
        -- An external entity (a web page, a report not stored here) may name its source_ref so it
        -- counts as the same original source as evidence carrying that source_ref.
        source_ref     TEXT,
        label          TEXT NOT NULL,
        started_at     TEXT,
        ended_at       TEXT,
        tenant         TEXT NOT NULL,
        classification TEXT NOT NULL
          CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
        created_by     TEXT NOT NULL REFERENCES actor (actor_id),
        created_at     TEXT NOT NULL,
        CHECK ((subtype = 'revision') = (revision_id IS NOT NULL)),
        CHECK ((subtype = 'source') = (source_id IS NOT NULL)),
        CHECK (kind = 'entity' OR subtype NOT IN ('revision', 'source', 'external'))
      ) STRICT;

      -- Edges read subject → object in PROV's own argument order: wasDerivedFrom(generated, used),
      -- used(activity, entity), wasGeneratedBy(entity, activity), wasAssociatedWith(activity,
      -- agent), wasAttributedTo(entity, agent). The service checks endpoint kinds per type.
      CREATE TABLE prov_edge (
        edge_id    INTEGER PRIMARY KEY,
        type       TEXT NOT NULL CHECK (type IN
          ('used', 'wasGeneratedBy', 'wasDerivedFrom', 'wasAssociatedWith', 'wasAttributedTo')),
        subject    TEXT NOT NULL REFERENCES prov_node (node_id),
        object     TEXT NOT NULL REFERENCES prov_node (node_id),
        created_by TEXT NOT NULL REFERENCES actor (actor_id),
        created_at TEXT NOT NULL,
        CHECK (subject <> object),
        UNIQUE (subject, type, object)
      ) STRICT;
      CREATE INDEX prov_edge_by_object ON prov_edge (object, type, subject);

      CREATE TRIGGER prov_node_append_only BEFORE UPDATE ON prov_node
      BEGIN
        SELECT RAISE(ABORT, 'prov_node is append-only');
      END;
      CREATE TRIGGER prov_node_no_delete BEFORE DELETE ON prov_node
      BEGIN
        SELECT RAISE(ABORT, 'prov_node is append-only');
      END;
      CREATE TRIGGER prov_edge_append_only BEFORE UPDATE ON prov_edge
      BEGIN
        SELECT RAISE(ABORT, 'prov_edge is append-only');
      END;
      CREATE TRIGGER prov_edge_no_delete BEFORE DELETE ON prov_edge
      BEGIN
        SELECT RAISE(ABORT, 'prov_edge is append-only');
      END;
    `);
  },
};
