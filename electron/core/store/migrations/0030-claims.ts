import type { Migration } from './migration';

export const m0030_claims: Migration = {
  version: 30,
  name: 'claims',
  up: (db) => {
    db.exec(`
      CREATE TABLE claim (
        claim_id          TEXT PRIMARY KEY,
        statement         TEXT NOT NULL CHECK (length(statement) > 0),
        scope             TEXT NOT NULL CHECK (json_valid(scope)),
        policy            TEXT NOT NULL CHECK (json_valid(policy)),
        generation        INTEGER NOT NULL DEFAULT 1 CHECK (generation >= 1),
        tenant            TEXT NOT NULL,
        classification    TEXT NOT NULL
          CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
        unresolved_reason TEXT,
        author            TEXT NOT NULL REFERENCES actor (actor_id),
        created_at        TEXT NOT NULL
      ) STRICT;

      -- A binding ties one claim generation to one exact evidence revision. Bindings of older
      -- generations stay as history; reads select the claim's current generation.
      CREATE TABLE claim_binding (
        binding_id  INTEGER PRIMARY KEY,
        claim_id    TEXT NOT NULL REFERENCES claim (claim_id),
        generation  INTEGER NOT NULL,
        revision_id TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        relation    TEXT NOT NULL CHECK (relation IN
          ('FULL_SUPPORT', 'PARTIAL_SUPPORT', 'REFUTES', 'CONTEXT_ONLY', 'IRRELEVANT', 'UNKNOWN')),
        role        TEXT NOT NULL CHECK (role IN ('REQUIRED', 'SUPPORTING', 'CONTEXT')),
        rationale   TEXT NOT NULL DEFAULT '',
        created_by  TEXT NOT NULL REFERENCES actor (actor_id),
        created_at  TEXT NOT NULL,
        UNIQUE (claim_id, generation, revision_id)
      ) STRICT;
      CREATE INDEX claim_binding_by_claim ON claim_binding (claim_id, generation);
      CREATE INDEX claim_binding_by_revision ON claim_binding (revision_id, claim_id);
    `);
  },
};
