import type { Migration } from './migration';

export const m0210_decisions: Migration = {
  version: 210,
  name: 'decisions',
  up: (db) => {
    db.exec(`
      -- A reviewer decision on one claim generation. What was decided (verdict, the exact evidence
      -- and computation refs, the fingerprint over them) never changes; only the review status
      -- moves, once, from PROPOSED. A changed basis means a new decision, never an edited one.
      CREATE TABLE decision (
        decision_id      TEXT PRIMARY KEY,
        claim_id         TEXT NOT NULL REFERENCES claim (claim_id),
        generation       INTEGER NOT NULL CHECK (generation >= 1),
        verdict          TEXT NOT NULL
          CHECK (verdict IN ('SUPPORTED', 'REFUTED', 'UNRESOLVED', 'NEEDS_MORE_EVIDENCE')),
        rationale        TEXT NOT NULL CHECK (length(rationale) > 0),
        evidence_refs    TEXT NOT NULL CHECK (json_valid(evidence_refs)),
        computation_refs TEXT NOT NULL CHECK (json_valid(computation_refs)),
        fingerprint      TEXT NOT NULL,
        status           TEXT NOT NULL DEFAULT 'PROPOSED'
          CHECK (status IN ('PROPOSED', 'APPROVED', 'REJECTED', 'WITHDRAWN')),
        proposed_by      TEXT NOT NULL REFERENCES actor (actor_id),
        proposed_at      TEXT NOT NULL,
        decided_by       TEXT REFERENCES actor (actor_id),
        decided_at       TEXT,
        decision_note    TEXT
      ) STRICT;
      CREATE INDEX decision_by_claim ON decision (claim_id, status, proposed_at);
      CREATE INDEX decision_by_status ON decision (status, claim_id);

      CREATE TRIGGER decision_no_delete BEFORE DELETE ON decision
      BEGIN
        SELECT RAISE(ABORT, 'decision rows are never deleted');
      END;
      CREATE TRIGGER decision_basis_immutable
      BEFORE UPDATE OF decision_id, claim_id, generation, verdict, rationale, evidence_refs,
        computation_refs, fingerprint, proposed_by, proposed_at
      ON decision
      BEGIN
        SELECT RAISE(ABORT, 'a decision''s basis is immutable: propose a new decision instead');
      END;
      CREATE TRIGGER decision_status_once
      BEFORE UPDATE OF status ON decision
      WHEN OLD.status <> 'PROPOSED'
      BEGIN
        SELECT RAISE(ABORT, 'a decision leaves PROPOSED once and then never changes');
      END;
    `);
  },
};
