import type { Migration } from './migration';

export const m0310_remediation: Migration = {
  version: 310,
  name: 'remediation queue',
  up: (db) => {
    db.exec(`
      -- An owner-action remediation (DESIGN §3.6): opened by the worker when an approved decision's
      -- support projection leaves ELIGIBLE, resolved exactly once by a reviewer. What opened it
      -- never changes; resolving fills the resolution columns once and nothing is ever deleted.
      CREATE TABLE remediation (
        remediation_id      INTEGER PRIMARY KEY,
        claim_id            TEXT NOT NULL REFERENCES claim (claim_id),
        generation          INTEGER NOT NULL,
        decision_id         TEXT NOT NULL REFERENCES decision (decision_id),
        fence_id            INTEGER NOT NULL REFERENCES revocation_fence (fence_id),
        job_id              INTEGER NOT NULL REFERENCES outbox_job (job_id),
        owner               TEXT NOT NULL,
        projection          TEXT NOT NULL CHECK (projection IN ('PARTIALLY_SUPPORTED', 'BLOCKED', 'PENDING_REVALIDATION')),
        projection_version  INTEGER NOT NULL,
        affected            TEXT NOT NULL CHECK (json_valid(affected)),
        opened_at           TEXT NOT NULL,
        status              TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVED')),
        resolution          TEXT CHECK (resolution IN ('RETAINED', 'REREVIEW', 'WITHDRAWN')),
        resolved_by         TEXT REFERENCES actor (actor_id),
        resolved_at         TEXT,
        resolution_reason   TEXT,
        new_generation      INTEGER,
        carried_decision_id TEXT REFERENCES decision (decision_id),
        CHECK ((status = 'OPEN') = (resolution IS NULL))
      ) STRICT;
      -- Exactly one open remediation per claim: the worker opens it on the move out of ELIGIBLE.
      CREATE UNIQUE INDEX remediation_one_open ON remediation (claim_id) WHERE status = 'OPEN';
      CREATE INDEX remediation_by_status ON remediation (status, remediation_id);

      CREATE TRIGGER remediation_no_delete BEFORE DELETE ON remediation
      BEGIN
        SELECT RAISE(ABORT, 'remediation rows are never deleted');
      END;
      CREATE TRIGGER remediation_cause_immutable
      BEFORE UPDATE OF remediation_id, claim_id, generation, decision_id, fence_id, job_id, owner,
        projection, projection_version, affected, opened_at
      ON remediation
      BEGIN
        SELECT RAISE(ABORT, 'what opened a remediation is immutable');
      END;
      CREATE TRIGGER remediation_resolved_once
      BEFORE UPDATE ON remediation
      WHEN OLD.status <> 'OPEN'
      BEGIN
        SELECT RAISE(ABORT, 'a remediation is resolved once and then never changes');
      END;
    `);
  },
};
