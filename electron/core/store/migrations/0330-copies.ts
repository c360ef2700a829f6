import { bandBuckets, copySignature, encodeSignature } from '../../../../shared/domain/copies';
import type { Migration } from './migration';

/**
 * Probable copies (DESIGN §3.11, seed 000 §38.2): a MinHash signature per revision, its LSH band
 * buckets (the index an ingest looks candidates up in), and the copy links found on ingest, which
 * collapse into one source until a reviewer confirms, with a receipt, that they are independent.
 * Signatures of revisions that already exist are computed here: they are derived from the
 * content alone (an index, not a fact), so no receipt is needed for them.
 */
export const m0330_copies: Migration = {
  version: 330,
  name: 'probable copies',
  up: (db) => {
    db.exec(`
      CREATE TABLE copy_signature (
        sig_id      INTEGER PRIMARY KEY,
        revision_id TEXT NOT NULL UNIQUE REFERENCES evidence_revision (revision_id),
        signature   TEXT NOT NULL
      ) STRICT;
      -- One row per (LSH bucket, signature): 42 per revision. Integer keys keep it compact.
      CREATE TABLE copy_band (
        bucket INTEGER NOT NULL,
        sig_id INTEGER NOT NULL REFERENCES copy_signature (sig_id),
        PRIMARY KEY (bucket, sig_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TRIGGER copy_signature_immutable BEFORE UPDATE ON copy_signature
      BEGIN
        SELECT RAISE(ABORT, 'copy_signature is immutable');
      END;
      CREATE TRIGGER copy_signature_no_delete BEFORE DELETE ON copy_signature
      BEGIN
        SELECT RAISE(ABORT, 'copy_signature is immutable');
      END;

      -- revision_id was found, on its ingest, to be a probable copy of the earlier copy_of.
      -- Confirming them independent is the one change a link ever sees, and it is receipted.
      CREATE TABLE evidence_copy (
        revision_id        TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        copy_of            TEXT NOT NULL REFERENCES evidence_revision (revision_id),
        jaccard            REAL NOT NULL CHECK (jaccard BETWEEN 0 AND 1),
        containment        REAL NOT NULL CHECK (containment BETWEEN 0 AND 1),
        reason             TEXT NOT NULL,
        detected_at        TEXT NOT NULL,
        independent_reason TEXT,
        confirmed_by       TEXT REFERENCES actor (actor_id),
        confirmed_at       TEXT,
        PRIMARY KEY (revision_id, copy_of),
        CHECK (revision_id <> copy_of),
        CHECK ((independent_reason IS NULL) = (confirmed_by IS NULL) AND (confirmed_by IS NULL) = (confirmed_at IS NULL))
      ) STRICT;
      CREATE INDEX evidence_copy_by_original ON evidence_copy (copy_of);
      CREATE TRIGGER evidence_copy_no_delete BEFORE DELETE ON evidence_copy
      BEGIN
        SELECT RAISE(ABORT, 'evidence_copy rows are kept as history');
      END;
      CREATE TRIGGER evidence_copy_confirmed_once BEFORE UPDATE ON evidence_copy
      WHEN OLD.independent_reason IS NOT NULL OR NEW.revision_id IS NOT OLD.revision_id OR NEW.copy_of IS NOT OLD.copy_of
        OR NEW.jaccard IS NOT OLD.jaccard OR NEW.containment IS NOT OLD.containment OR NEW.reason IS NOT OLD.reason
        OR NEW.detected_at IS NOT OLD.detected_at
      BEGIN
        SELECT RAISE(ABORT, 'a copy link only changes once, when a reviewer confirms the two are independent');
      END;
    `);
    const rows = db.prepare('SELECT revision_id, content FROM evidence_revision ORDER BY revision_id').all() as { revision_id: string; content: string }[];
    const insertSig = db.prepare('INSERT INTO copy_signature (revision_id, signature) VALUES (?, ?)');
    const insertBand = db.prepare('INSERT OR IGNORE INTO copy_band (bucket, sig_id) VALUES (?, ?)');
    for (const r of rows) {
      const sig = copySignature(r.content);
      const sigId = Number(insertSig.run(r.revision_id, encodeSignature(sig)).lastInsertRowid);
      for (const bucket of bandBuckets(sig)) insertBand.run(bucket, sigId);
    }
  },
};
