import type { Migration } from './migration';

/**
 * Which receipts name a target (issue 15): a pull verifies only what changed, and for each row the
 * server's images change it re-checks every receipt that names the row's targets, old ones too
 * (team/pullVerification.ts). Derived by triggers from the receipts themselves, so it is never a
 * fact of the case and never replicated: every replica builds its own from the receipts it holds.
 */
export const m0500_receipt_targets: Migration = {
  version: 500,
  name: 'receipt-targets',
  up: (db) => {
    db.exec(`
      CREATE TABLE receipt_target (
        target TEXT NOT NULL,
        seq    INTEGER NOT NULL,
        PRIMARY KEY (target, seq)
      ) STRICT, WITHOUT ROWID;
      -- A receipt whose targets are not a JSON array names nothing here; verify refuses it anyway.
      CREATE TRIGGER receipt_target_insert AFTER INSERT ON audit_receipt BEGIN
        INSERT OR IGNORE INTO receipt_target (target, seq)
          SELECT value, NEW.seq FROM json_each(CASE WHEN json_valid(NEW.targets) THEN NEW.targets ELSE '[]' END) WHERE type = 'text';
      END;
      INSERT OR IGNORE INTO receipt_target (target, seq)
        SELECT j.value, r.seq FROM audit_receipt r, json_each(CASE WHEN json_valid(r.targets) THEN r.targets ELSE '[]' END) j WHERE j.type = 'text';
    `);
  },
};
