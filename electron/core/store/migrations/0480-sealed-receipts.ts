import type { Migration } from './migration';

/**
 * Sealed receipts (issue 15): a receipt's hash covers what it says through a digest salted with
 * a value drawn for that receipt (receipts.ts, sealedDigest), so the chain can be verified by a
 * reader who may not read the receipt, and the digest reveals nothing to a guess. Receipts
 * written before keep their salt null and their format-1 hash; verify refuses an unsealed receipt
 * after a sealed one.
 */
export const m0480_sealed_receipts: Migration = {
  version: 480,
  name: 'sealed-receipts',
  up: (db) => {
    db.exec(`
      ALTER TABLE audit_receipt ADD COLUMN salt TEXT
        CHECK (salt IS NULL OR (length(salt) = 32 AND salt NOT GLOB '*[^0-9a-f]*'));
    `);
  },
};
