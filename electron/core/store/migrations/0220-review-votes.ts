import type { Migration } from './migration';

export const m0220_review_votes: Migration = {
  version: 220,
  name: 'review votes',
  up: (db) => {
    db.exec(`
      -- Quorum review votes (DESIGN §3.4). Append-only: a re-vote is a new row and the reviewer's
      -- latest row on the current basis is the one that counts; earlier rows stay as history.
      -- basis is the fingerprint of what the reviewer looked at (claim generation and exact refs).
      CREATE TABLE review_vote (
        vote_id      INTEGER PRIMARY KEY,
        claim_id     TEXT NOT NULL REFERENCES claim (claim_id),
        generation   INTEGER NOT NULL CHECK (generation >= 1),
        basis        TEXT NOT NULL,
        reviewer     TEXT NOT NULL REFERENCES actor (actor_id),
        refuted      INTEGER CHECK (refuted IS NULL OR refuted IN (0, 1)),
        checklist    TEXT NOT NULL CHECK (json_valid(checklist)),
        reason       TEXT NOT NULL,
        kill_reasons TEXT NOT NULL CHECK (json_valid(kill_reasons)),
        valid        INTEGER NOT NULL CHECK (valid IN (0, 1)),
        cast_at      TEXT NOT NULL
      ) STRICT;
      CREATE INDEX review_vote_by_claim ON review_vote (claim_id, basis, reviewer, vote_id);

      CREATE TRIGGER review_vote_no_update BEFORE UPDATE ON review_vote
      BEGIN
        SELECT RAISE(ABORT, 'review_vote is append-only: vote again instead');
      END;
      CREATE TRIGGER review_vote_no_delete BEFORE DELETE ON review_vote
      BEGIN
        SELECT RAISE(ABORT, 'review_vote is append-only');
      END;
    `);
  },
};
