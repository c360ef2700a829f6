import type { Migration } from './migration';

const PROJECTIONS = `('ELIGIBLE', 'PARTIALLY_SUPPORTED', 'BLOCKED', 'PENDING_REVALIDATION')`;

export const m0300_revocation: Migration = {
  version: 300,
  name: 'revocation fences, outbox and support projections',
  up: (db) => {
    db.exec(`
      -- A fence (DESIGN §3.5): written in the same transaction as a revoke or supersede, so from
      -- that commit on every read path sees that dependents of the revision may not be current.
      -- DERIVED fences are written by the worker on revisions derived (PROV wasDerivedFrom) from a
      -- fenced one. binding_watermark is the highest claim_binding id at fence time: bindings
      -- made later were made knowingly and are judged by the live projection instead.
      CREATE TABLE revocation_fence (
        fence_id          INTEGER PRIMARY KEY,
        revision_id       TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        cause             TEXT NOT NULL CHECK (cause IN ('REVOKED', 'SUPERSEDED', 'DERIVED')),
        from_state        TEXT,
        root_fence_id     INTEGER REFERENCES revocation_fence (fence_id),
        parent_fence_id   INTEGER REFERENCES revocation_fence (fence_id),
        reason            TEXT NOT NULL,
        supporting_ref    TEXT,
        actor             TEXT NOT NULL,
        fenced_at         TEXT NOT NULL,
        fenced_at_ms      INTEGER NOT NULL,
        binding_watermark INTEGER NOT NULL,
        CHECK ((cause = 'DERIVED') = (root_fence_id IS NOT NULL)),
        CHECK ((cause = 'DERIVED') = (parent_fence_id IS NOT NULL))
      ) STRICT;
      CREATE INDEX revocation_fence_by_revision ON revocation_fence (revision_id, fence_id);
      CREATE INDEX revocation_fence_by_root ON revocation_fence (root_fence_id, revision_id);
      CREATE TRIGGER revocation_fence_append_only BEFORE UPDATE ON revocation_fence
      BEGIN
        SELECT RAISE(ABORT, 'revocation_fence is append-only');
      END;
      CREATE TRIGGER revocation_fence_no_delete BEFORE DELETE ON revocation_fence
      BEGIN
        SELECT RAISE(ABORT, 'revocation_fence is append-only');
      END;

      -- Durable outbox: one job per page of a fence's dependents. A job is claimed by taking its
      -- lease; a crashed worker's lease expires and the job is claimed again. phase 'claims' pages
      -- claims bound to the fenced revision, phase 'derived' pages revisions derived from it.
      CREATE TABLE outbox_job (
        job_id           INTEGER PRIMARY KEY,
        fence_id         INTEGER NOT NULL REFERENCES revocation_fence (fence_id),
        root_fence_id    INTEGER NOT NULL REFERENCES revocation_fence (fence_id),
        phase            TEXT NOT NULL CHECK (phase IN ('claims', 'derived')),
        cursor           TEXT,
        status           TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'DONE')),
        attempts         INTEGER NOT NULL DEFAULT 0,
        lease_owner      TEXT,
        lease_expires_at INTEGER,
        created_at_ms    INTEGER NOT NULL,
        done_at_ms       INTEGER,
        converged        INTEGER NOT NULL DEFAULT 0,
        receipt_seq      INTEGER
      ) STRICT;
      CREATE INDEX outbox_job_open ON outbox_job (status, job_id);
      CREATE INDEX outbox_job_by_root ON outbox_job (root_fence_id, status);
      CREATE TRIGGER outbox_job_no_delete BEFORE DELETE ON outbox_job
      BEGIN
        SELECT RAISE(ABORT, 'outbox_job rows are kept as the record of convergence');
      END;
      CREATE TRIGGER outbox_job_done_once BEFORE UPDATE ON outbox_job
      WHEN OLD.status = 'DONE'
      BEGIN
        SELECT RAISE(ABORT, 'a DONE outbox job never changes again');
      END;

      -- Convergence of one fence: counted when its first page is taken, advanced by each page.
      CREATE TABLE fence_progress (
        fence_id             INTEGER PRIMARY KEY REFERENCES revocation_fence (fence_id),
        dependents_total     INTEGER,
        dependents_converged INTEGER NOT NULL DEFAULT 0,
        derived_fences       INTEGER NOT NULL DEFAULT 0,
        first_taken_at_ms    INTEGER
      ) STRICT;

      -- The support projection of a claim as last recomputed. version is the compare-and-swap
      -- token; fence_watermark is the highest fence id that existed when it was computed, so a
      -- later fence on its evidence makes the claim read as pending until it is recomputed.
      CREATE TABLE support_projection (
        claim_id        TEXT PRIMARY KEY REFERENCES claim (claim_id),
        generation      INTEGER NOT NULL,
        projection      TEXT NOT NULL CHECK (projection IN ${PROJECTIONS}),
        reasons         TEXT NOT NULL CHECK (json_valid(reasons)),
        version         INTEGER NOT NULL CHECK (version >= 1),
        fence_watermark INTEGER NOT NULL,
        computed_at     TEXT NOT NULL,
        job_id          INTEGER REFERENCES outbox_job (job_id)
      ) STRICT;

      -- What each job applied, once: (fence, claim) is unique, so a replayed or doubly claimed job
      -- can never apply a fence to a claim twice. Append-only.
      CREATE TABLE projection_ledger (
        fence_id        INTEGER NOT NULL REFERENCES revocation_fence (fence_id),
        claim_id        TEXT NOT NULL REFERENCES claim (claim_id),
        job_id          INTEGER NOT NULL REFERENCES outbox_job (job_id),
        generation      INTEGER NOT NULL,
        from_projection TEXT CHECK (from_projection IS NULL OR from_projection IN ${PROJECTIONS}),
        to_projection   TEXT NOT NULL CHECK (to_projection IN ${PROJECTIONS}),
        from_version    INTEGER NOT NULL,
        to_version      INTEGER NOT NULL,
        PRIMARY KEY (fence_id, claim_id)
      ) STRICT;
      CREATE INDEX projection_ledger_by_job ON projection_ledger (job_id);
      CREATE TRIGGER projection_ledger_append_only BEFORE UPDATE ON projection_ledger
      BEGIN
        SELECT RAISE(ABORT, 'projection_ledger is append-only');
      END;
      CREATE TRIGGER projection_ledger_no_delete BEFORE DELETE ON projection_ledger
      BEGIN
        SELECT RAISE(ABORT, 'projection_ledger is append-only');
      END;
    `);
  },
};
