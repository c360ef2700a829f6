import type { Migration } from './migration';

/**
 * Replicas (issue 15): a case on a team server records which rows each write touched, so a push
 * can send their images with its receipts and another replica can apply them (replicaRows.ts).
 * The capture triggers are made when the case joins a team (never for a case kept on one machine);
 * these two tables are where they write. Neither is a fact of the case: what a row says is held to
 * its receipt by verify, on every replica.
 */
export const m0490_replica_capture: Migration = {
  version: 490,
  name: 'replica-capture',
  up: (db) => {
    db.exec(`
      -- The replica's own settings: whether writes are captured, and the last server seq it holds.
      CREATE TABLE replica_state (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      -- Rows written since the last push, by table and key (a JSON array: the rowid, or the primary
      -- key's columns for a table without rowid); the push sends each one's image as it is then.
      CREATE TABLE replica_dirty (
        change_id INTEGER PRIMARY KEY,
        tbl       TEXT NOT NULL,
        key       TEXT NOT NULL
      ) STRICT;
      -- Actions taken on this replica and not yet on the server (provisional), with the request
      -- that made them, so they can be taken again on a newer head (reconcile.ts). request is null
      -- for one that cannot be taken again unattended (it carried a passphrase).
      CREATE TABLE replica_pending (
        first_seq INTEGER PRIMARY KEY,
        last_seq  INTEGER NOT NULL CHECK (last_seq >= first_seq),
        actor     TEXT NOT NULL,
        channel   TEXT NOT NULL,
        request   TEXT
      ) STRICT;
      -- Provisional actions that were no longer valid on the server's newer head: shown to their
      -- author to redo or drop, never applied silently and never lost.
      CREATE TABLE replica_conflict (
        conflict_id INTEGER PRIMARY KEY,
        actor       TEXT NOT NULL,
        channel     TEXT NOT NULL,
        request     TEXT,
        reason      TEXT NOT NULL,
        made_at     TEXT NOT NULL,
        found_at    TEXT NOT NULL
      ) STRICT;
    `);
  },
};
