import type { Migration } from './migration';

export const m0200_signatures: Migration = {
  version: 200,
  name: 'signatures',
  up: (db) => {
    db.exec(`
      -- Reviewer public keys (Ed25519, base64 SPKI DER). The authoritative copy of each key is the
      -- receipt that registered it (verification reads keys from the chain); this table is the
      -- index the signing path uses to check that a key on this machine belongs to the reviewer.
      CREATE TABLE actor_key (
        key_id        TEXT PRIMARY KEY,
        actor_id      TEXT NOT NULL REFERENCES actor (actor_id),
        algorithm     TEXT NOT NULL CHECK (algorithm = 'ed25519'),
        public_key    TEXT NOT NULL,
        registered_at TEXT NOT NULL,
        retired_at    TEXT
      ) STRICT;
      -- At most one active key per reviewer: a new key retires the old one in the same transaction.
      CREATE UNIQUE INDEX actor_key_one_active ON actor_key (actor_id) WHERE retired_at IS NULL;

      CREATE TRIGGER actor_key_no_delete BEFORE DELETE ON actor_key
      BEGIN
        SELECT RAISE(ABORT, 'actor_key rows are never deleted; retire a key instead');
      END;
      CREATE TRIGGER actor_key_retire_only
      BEFORE UPDATE ON actor_key
      WHEN OLD.retired_at IS NOT NULL OR NEW.retired_at IS NULL
        OR NEW.key_id IS NOT OLD.key_id OR NEW.actor_id IS NOT OLD.actor_id
        OR NEW.algorithm IS NOT OLD.algorithm OR NEW.public_key IS NOT OLD.public_key
        OR NEW.registered_at IS NOT OLD.registered_at
      BEGIN
        SELECT RAISE(ABORT, 'actor_key rows only change by being retired once');
      END;

      -- Each receipt names the key that signed it and carries an Ed25519 signature over its hash.
      -- Receipts written before this schema have neither and cannot be proven (verify says so).
      ALTER TABLE audit_receipt ADD COLUMN signer TEXT;
      ALTER TABLE audit_receipt ADD COLUMN signature TEXT;
    `);
  },
};
