import { MACHINE_RECORD_KINDS } from '../../../../shared/domain/copies';
import type { Migration } from './migration';

/**
 * Machine records are copies only of identical content (shared/domain/copies.ts), so finding a
 * machine record's copies is one seek by content hash, not an LSH search: the revision table
 * gets that index, and machine records leave the LSH bucket index (derived rows, no facts), where
 * their template wording only crowded out the reports that wording can matter for.
 */
export const m0340_copies_by_content: Migration = {
  version: 340,
  name: 'machine records copied by identity',
  up: (db) => {
    db.exec('CREATE INDEX evidence_revision_by_content ON evidence_revision (content_sha256)');
    db.prepare(
      `DELETE FROM copy_band WHERE sig_id IN (
         SELECT s.sig_id FROM copy_signature s JOIN evidence_revision r ON r.revision_id = s.revision_id
         WHERE r.kind IN (SELECT value FROM json_each(?)))`,
    ).run(JSON.stringify([...MACHINE_RECORD_KINDS]));
  },
};
